package vmaf

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// codecSpec is the encode a codec-aware regressor is told about, from the
// model options codec=, preset=, crf= (or preset_norm=, crf_norm= given
// directly). The block it lays out follows the model's card:
//
//	encoder_onehot[ENC]  1 for the encoder named by codec=, 0 for the others;
//	                     an encoder not in the card's vocabulary takes the
//	                     "unknown" slot where the card has one, and is
//	                     refused where it has none
//	preset_norm          the preset's place on the encoder's ladder, 0 (fastest)
//	                     to 1 (slowest); 0.5 when no preset is given
//	crf_norm             crf / the encoder's largest crf (51 for x264, x265
//	                     and the hardware encoders, 63 for AV1, VP9 and
//	                     VVC encoders); 0.5 when no crf is given
type codecSpec struct {
	encoder, preset     string
	crf                 float64
	hasCRF              bool
	presetNorm, crfNorm *float64
}

func (c codecSpec) given() bool {
	return c.encoder != "" || c.preset != "" || c.hasCRF || c.presetNorm != nil || c.crfNorm != nil
}

func (c *codecSpec) set(key, val string) error {
	switch key {
	case "codec":
		if val == "" {
			return fmt.Errorf("empty")
		}
		c.encoder = strings.ToLower(val)
	case "preset":
		if val == "" {
			return fmt.Errorf("empty")
		}
		c.preset = strings.ToLower(val)
	case "crf":
		v, err := strconv.ParseFloat(val, 64)
		if err != nil || v < 0 || v > 255 {
			return fmt.Errorf("want a number from 0 to 255")
		}
		c.crf, c.hasCRF = v, true
	case "preset_norm", "crf_norm":
		v, err := strconv.ParseFloat(val, 64)
		if err != nil || !(v >= 0 && v <= 1) {
			return fmt.Errorf("want a number from 0 to 1")
		}
		if key == "preset_norm" {
			c.presetNorm = &v
		} else {
			c.crfNorm = &v
		}
	}
	return nil
}

// encoderAliases are other names for the encoders the cards list.
var encoderAliases = map[string]string{
	"x264": "libx264", "h264": "libx264", "avc": "libx264",
	"x265": "libx265", "hevc": "libx265", "h265": "libx265",
	"svtav1": "libsvtav1", "svt-av1": "libsvtav1", "aom": "libaom-av1", "libaom": "libaom-av1",
	"vp9": "libvpx-vp9", "libvpx": "libvpx-vp9", "vvenc": "libvvenc",
}

// x26xPresets is x264's and x265's preset ladder, fastest first.
var x26xPresets = []string{"ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"}

// vvencPresets is VVenC's ladder, fastest first.
var vvencPresets = []string{"faster", "fast", "medium", "slow", "slower"}

// presetNorm places a preset on the encoder's ladder: a name of x264's,
// x265's or VVenC's ladder, or a number (SVT-AV1's preset 13..0 and
// libaom's/libvpx's cpu-used 8..0 are fastest to slowest; NVENC's p1..p7
// slowest last).
func presetNorm(encoder, preset string) (float64, error) {
	ladder := x26xPresets
	if encoder == "libvvenc" {
		ladder = vvencPresets
	}
	if i := slices.Index(ladder, preset); i >= 0 {
		return float64(i) / float64(len(ladder)-1), nil
	}
	if p, ok := strings.CutPrefix(preset, "p"); ok && strings.Contains(encoder, "nvenc") {
		if n, err := strconv.Atoi(p); err == nil && n >= 1 && n <= 7 {
			return float64(n-1) / 6, nil
		}
	}
	n, err := strconv.Atoi(preset)
	switch {
	case err == nil && encoder == "libsvtav1" && n >= 0 && n <= 13:
		return float64(13-n) / 13, nil
	case err == nil && (encoder == "libaom-av1" || encoder == "libvpx-vp9") && n >= 0 && n <= 8:
		return float64(8-n) / 8, nil
	}
	return 0, fmt.Errorf("preset %q: not a preset of %s this engine can place (x264/x265 names, VVenC names, SVT-AV1 0..13, libaom/libvpx cpu-used 0..8, NVENC p1..p7; or give preset_norm=0..1)", preset, encoder)
}

// maxCRF is the top of the encoder's quality scale.
func maxCRF(encoder string) float64 {
	switch encoder {
	case "libsvtav1", "libaom-av1", "libvpx-vp9", "libvvenc":
		return 63
	}
	return 51
}

// block lays the codec block out as the card's layout says.
func (c codecSpec) block(layout []string) ([]float32, error) {
	out := make([]float32, len(layout))
	var vocab []string
	for _, l := range layout {
		if e, ok := strings.CutPrefix(l, "encoder_onehot["); ok {
			vocab = append(vocab, strings.TrimSuffix(e, "]"))
		}
	}
	enc := c.encoder
	if a, ok := encoderAliases[enc]; ok {
		enc = a
	}
	slot := ""
	switch {
	case enc != "" && slices.Contains(vocab, enc):
		slot = enc
	case slices.Contains(vocab, "unknown"):
		slot = "unknown"
	case enc == "":
		return nil, fmt.Errorf("the model is codec-aware and its vocabulary has no \"unknown\" slot: give codec= (one of %s)", strings.Join(vocab, ", "))
	default:
		return nil, fmt.Errorf("codec %q is not in the model's vocabulary (%s), which has no \"unknown\" slot", c.encoder, strings.Join(vocab, ", "))
	}
	pn, cn := 0.5, 0.5
	var err error
	switch {
	case c.presetNorm != nil:
		pn = *c.presetNorm
	case c.preset != "":
		if pn, err = presetNorm(enc, c.preset); err != nil {
			return nil, err
		}
	}
	switch {
	case c.crfNorm != nil:
		cn = *c.crfNorm
	case c.hasCRF:
		if c.crf > maxCRF(enc) {
			return nil, fmt.Errorf("crf %g is above %s's largest, %g", c.crf, enc, maxCRF(enc))
		}
		cn = c.crf / maxCRF(enc)
	}
	for i, l := range layout {
		switch {
		case l == "encoder_onehot["+slot+"]":
			out[i] = 1
		case l == "preset_norm":
			out[i] = float32(pn)
		case l == "crf_norm":
			out[i] = float32(cn)
		case strings.HasPrefix(l, "encoder_onehot["):
		default:
			return nil, fmt.Errorf("its card's codec_block_layout has %q, which this engine does not know how to fill", l)
		}
	}
	return out, nil
}
