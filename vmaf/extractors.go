package vmaf

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/adm"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/cambi"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/ciede"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/floatadm"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/floatansnr"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/floatmoment"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/floatmotion"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/floatpsnr"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/floatvif"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/lpips"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/motion"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/psnr"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/psnrhvs"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/speed"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/ssim"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/vif"
)

// extractorKinds are the extractors the native engine has, by libvmaf's
// extractor name (what --feature names). Read-only.
var extractorKinds = func() map[string]*feature.Kind {
	m := map[string]*feature.Kind{}
	for _, k := range []*feature.Kind{vif.Kind, adm.Kind, motion.Kind, psnr.Kind, ssim.Kind, ssim.MSKind,
		floatvif.Kind, floatadm.Kind, floatmotion.Kind, floatpsnr.Kind, floatansnr.Kind, floatmoment.Kind, lpips.Kind,
		cambi.Kind, ciede.Kind, psnrhvs.Kind, speed.ChromaKind, speed.TemporalKind} {
		m[k.Name] = k
	}
	return m
}()

// ExtractorNames lists the extractors the native engine has, sorted.
func ExtractorNames() []string {
	names := make([]string, 0, len(extractorKinds))
	for n := range extractorKinds {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// parseFeature reads one feature request in libvmaf's --feature grammar,
// NAME or NAME=opt=val:opt=val.
func parseFeature(spec string) (feature.Settings, error) {
	name, opts, _ := strings.Cut(strings.TrimSpace(spec), "=")
	k, ok := extractorKinds[name]
	if !ok {
		return feature.Settings{}, fmt.Errorf("vmaf: unknown feature %q (have %s)", name, strings.Join(ExtractorNames(), ", "))
	}
	s, err := k.Parse(opts)
	if err == nil {
		err = checkSettings(s)
	}
	if err != nil {
		return feature.Settings{}, fmt.Errorf("vmaf: %w", err)
	}
	return s, nil
}

// CheckFeature says whether the native engine can compute a feature
// request, NAME or NAME=opt=val:opt=val as libvmaf's --feature takes it,
// without a stream: unknown names and options, ill-typed or out-of-range
// values are errors.
func CheckFeature(spec string) error {
	_, err := parseFeature(spec)
	return err
}

// frameOf views a picture as extractors read it.
func frameOf(p *Picture) feature.Frame {
	f := feature.Frame{Format: formatOf(p)}
	for i := 0; i < p.numPlanes(); i++ {
		w, h := p.PlaneSize(i)
		f.Planes[i] = feature.Plane{Data: p.Planes[i], Stride: p.Strides[i], W: w, H: h, BitDepth: p.BitDepth}
	}
	return f
}

func formatOf(p *Picture) feature.Format {
	return feature.Format{Width: p.Width, Height: p.Height, BitDepth: p.BitDepth, Chroma: feature.Chroma(p.Chroma)}
}

// checkSettings refuses what the kind's instances would refuse whatever
// the stream.
func checkSettings(s feature.Settings) error {
	if c := s.Kind().Check; c != nil {
		return c(s)
	}
	return nil
}

// ExtractorInfo describes one of the native engine's extractors.
type ExtractorInfo struct {
	Name string `json:"name"`
	// Outputs are the metrics it reports at default options on a 4:2:0
	// stream.
	Outputs []string     `json:"outputs"`
	Options []OptionInfo `json:"options,omitempty"`
}

// OptionInfo is one extractor option.
type OptionInfo struct {
	Name    string `json:"name"`
	Type    string `json:"type"` // bool, int, double or string
	Default string `json:"default"`
	// Min and Max bound int and double values.
	Min float64 `json:"min,omitempty"`
	Max float64 `json:"max,omitempty"`
	// Renames is true for options that, when not at their default, add
	// "_alias[_value]" to the output names.
	Renames bool `json:"renames,omitempty"`
	// DefaultOnly is true for options the native engine implements only
	// at their default; another value is refused.
	DefaultOnly bool `json:"default_only,omitempty"`
}

// Extractors describes the native engine's extractors, sorted by name.
func Extractors() []ExtractorInfo {
	var out []ExtractorInfo
	for _, name := range ExtractorNames() {
		k := extractorKinds[name]
		info := ExtractorInfo{Name: name, Outputs: k.Outputs(feature.Format{Chroma: feature.Chroma420, BitDepth: 8}, k.Defaults())}
		for _, o := range k.Options {
			oi := OptionInfo{Name: o.Name, Renames: o.Param}
			switch o.Type {
			case feature.Bool:
				oi.Type, oi.Default = "bool", strconv.FormatBool(o.Default != 0)
			case feature.Int:
				oi.Type, oi.Default, oi.Min, oi.Max = "int", strconv.Itoa(int(o.Default)), o.Min, o.Max
			case feature.Double:
				oi.Type, oi.Default, oi.Min, oi.Max = "double", strconv.FormatFloat(o.Default, 'g', -1, 64), o.Min, o.Max
			default:
				oi.Type, oi.Default = "string", o.DefaultString
			}
			oi.DefaultOnly = !acceptsOtherValue(k, o)
			info.Options = append(info.Options, oi)
		}
		out = append(out, info)
	}
	return out
}

// acceptsOtherValue says whether the kind takes option o at a value other
// than its default.
func acceptsOtherValue(k *feature.Kind, o feature.Option) bool {
	if k == motion.Kind {
		return false // the scheduler runs integer motion at its defaults only
	}
	var v string
	switch o.Type {
	case feature.Bool:
		v = strconv.FormatBool(o.Default == 0)
	case feature.String:
		return true
	default:
		other := o.Max
		if other == o.Default {
			other = o.Min
		}
		v = strconv.FormatFloat(other, 'g', -1, 64)
	}
	s, err := k.Defaults().With(o.Name, v)
	if err != nil {
		return false
	}
	return checkSettings(s) == nil
}
