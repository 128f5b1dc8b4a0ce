package tune

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/asticode/go-astiav"
)

// Encoder is an FFmpeg video encoder and the settings every probe shares;
// the CRF is the probe's own.
type Encoder struct {
	Name   string // FFmpeg's encoder name: libx264, libx265, libsvtav1, libaom-av1, libvpx-vp9, ...
	Preset string // the encoder's speed preset ("" leaves its default)
	// Options are further AVOptions of the encoder, in order, as ffmpeg's
	// -KEY VALUE takes them (x264-params, tune, g, ...).
	Options []Option
}

// Option is one encoder AVOption.
type Option struct{ Key, Value string }

// encoderTraits is what the search needs to know about an encoder.
type encoderTraits struct {
	min, max float64 // the CRF range searched by default
	start    float64 // the first probe
	step     float64 // the CRF grid by default
	growth   float64 // a typical rise of ln(101 − VMAF) per CRF unit (see deficit)
	// presetKey is the AVOption --preset sets.
	presetKey string
	// zeroBitrate: the encoder's CRF mode needs -b:v 0 (its rate control
	// otherwise targets FFmpeg's default 200 kb/s).
	zeroBitrate bool
}

var traits = map[string]encoderTraits{
	"libx264":    {min: 10, max: 51, start: 23, step: 0.25, growth: 0.15, presetKey: "preset"},
	"libx265":    {min: 10, max: 51, start: 28, step: 0.25, growth: 0.15, presetKey: "preset"},
	"libsvtav1":  {min: 10, max: 63, start: 35, step: 1, growth: 0.05, presetKey: "preset", zeroBitrate: true},
	"libaom-av1": {min: 10, max: 63, start: 32, step: 1, growth: 0.05, presetKey: "cpu-used", zeroBitrate: true},
	"libvpx-vp9": {min: 10, max: 63, start: 32, step: 1, growth: 0.05, presetKey: "cpu-used", zeroBitrate: true},
	"librav1e":   {min: 10, max: 255, start: 100, step: 1, growth: 0.012, presetKey: "speed"},
}

// traitsOf gives an encoder's traits; an encoder not listed gets
// x264-like ones.
func traitsOf(name string) encoderTraits {
	if t, ok := traits[name]; ok {
		return t
	}
	return encoderTraits{min: 0, max: 51, start: 23, step: 1, growth: 0.1, presetKey: "preset"}
}

// crfKey is the AVOption a probe's quality is set with.
func crfKey(name string) string {
	if name == "librav1e" {
		return "qp"
	}
	return "crf"
}

// KnownEncoders lists the encoders with tuned defaults that this build's
// FFmpeg has.
func KnownEncoders() []string {
	var names []string
	for n := range traits {
		if astiav.FindEncoderByName(n) != nil {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

func formatCRF(crf float64) string { return strconv.FormatFloat(crf, 'f', -1, 64) }

// avOptions are the options the encoder is opened with at one CRF.
func (e Encoder) avOptions(crf float64) []Option {
	t := traitsOf(e.Name)
	var opts []Option
	if e.Preset != "" {
		opts = append(opts, Option{t.presetKey, e.Preset})
	}
	opts = append(opts, Option{crfKey(e.Name), formatCRF(crf)})
	return append(opts, e.Options...)
}

// openOptions are avOptions plus what only quiets the encoder (x265's
// own log), which the reproducing ffmpeg arguments leave out.
func (e Encoder) openOptions(crf float64) []Option {
	opts := e.avOptions(crf)
	if e.Name != "libx265" {
		return opts
	}
	for i, o := range opts {
		if o.Key == "x265-params" {
			opts[i].Value += ":log-level=error"
			return opts
		}
	}
	return append(opts, Option{"x265-params", "log-level=error"})
}

// FFmpegArgs are the ffmpeg command-line arguments that, between
// `ffmpeg -i SOURCE` and an output name, reproduce a probe's encode.
func (e Encoder) FFmpegArgs(crf float64, pixFmt string) []string {
	args := []string{"-c:v", e.Name}
	for _, o := range e.avOptions(crf) {
		args = append(args, "-"+o.Key, o.Value)
	}
	if traitsOf(e.Name).zeroBitrate {
		args = append(args, "-b:v", "0")
	}
	return append(args, "-pix_fmt", pixFmt)
}

// ParseOptions reads KEY=VALUE options (from --enc) into Options.
func ParseOptions(list []string) ([]Option, error) {
	var opts []Option
	for _, kv := range list {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimPrefix(k, "-")
		if !ok || k == "" {
			return nil, fmt.Errorf("encoder option %q: want KEY=VALUE", kv)
		}
		switch k {
		case "crf", "qp", "b", "b:v", "c", "c:v", "pix_fmt":
			return nil, fmt.Errorf("encoder option %q: vmaf-tune sets %s itself", kv, k)
		}
		opts = append(opts, Option{k, v})
	}
	return opts, nil
}

// Check verifies the encoder exists in this build's FFmpeg.
func (e Encoder) Check() error {
	if e.Name == "" {
		return fmt.Errorf("no encoder given")
	}
	if astiav.FindEncoderByName(e.Name) == nil {
		return fmt.Errorf("encoder %q is not in this FFmpeg (known here: %s)", e.Name, strings.Join(KnownEncoders(), ", "))
	}
	return nil
}
