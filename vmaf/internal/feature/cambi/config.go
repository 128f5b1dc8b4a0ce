package cambi

import (
	"fmt"
	"strconv"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// config is what the settings and the stream's format fix for every
// frame, resolved the way libvmaf's CAMBI resolves them at init.
type config struct {
	fullRef      bool
	encW, encH   int
	srcW, srcH   int
	encBitDepth  int
	encWindow    int // window sizes adjusted to each picture's size
	srcWindow    int
	speedup      bool
	topk, maxVal float64

	numDiffs   int
	tvi        [32]int   // per contrast step: the highest 10-bit level (plus numDiffs) where it is visible
	weights    [32]int   // suprathreshold contrast response per step
	weights32  [32]int32 // the same, for the vector kernel
	vlt        int       // luma level below which banding is taken as invisible
	bandBase   int       // 10-bit levels outside [bandBase, bandBase+bandSize) never matter
	bandSize   int
	active     []uint32  // per 10-bit level: bit d set when step d can respond there
	levelRow   []int16   // per 10-bit level: its histogram row, -1 outside the band
	reciprocal []float32 // 1/i in float32, as libvmaf's table has it
}

// contrastWeights is libvmaf's suprathreshold contrast response.
var contrastWeights = [32]int{1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
	8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9}

// maxLevel bounds the 10-bit levels preprocessing can produce: rounding
// 12- and 16-bit samples down to 10 bits can give 1024.
const maxLevel = 1024

// maxLevelMask bounds the per-level tables to a power of two, so that
// indexing them with level&maxLevelMask needs no bounds check.
const maxLevelMask = 2047

func newConfig(f feature.Format, s feature.Settings) (config, error) {
	c := config{
		fullRef:     s.Bool("full_ref"),
		encW:        s.Int("enc_width"),
		encH:        s.Int("enc_height"),
		srcW:        s.Int("src_width"),
		srcH:        s.Int("src_height"),
		encBitDepth: s.Int("enc_bitdepth"),
		maxVal:      s.Float("cambi_max_val"),
		numDiffs:    1 << s.Int("max_log_contrast"),
	}
	switch f.BitDepth {
	case 8, 10, 12, 16:
	default:
		return c, fmt.Errorf("feature cambi: bit depth %d is not supported (8, 10, 12 or 16)", f.BitDepth)
	}
	if f.Width < 1 || f.Height < 1 {
		return c, fmt.Errorf("feature cambi: empty picture %dx%d", f.Width, f.Height)
	}
	if c.encBitDepth == 0 {
		c.encBitDepth = f.BitDepth
	}
	if c.encW == 0 || c.encH == 0 {
		c.encW, c.encH = f.Width, f.Height
	}
	if c.srcW == 0 || c.srcH == 0 {
		c.srcW, c.srcH = f.Width, f.Height
	}
	// A downscaled encode is not scaled back up to its encoding size.
	if c.encW > f.Width || c.encH > f.Height {
		c.encW, c.encH = f.Width, f.Height
	}
	if c.encW < minWidthHeight && c.encH < minWidthHeight {
		return c, fmt.Errorf("feature cambi: enc_width x enc_height %dx%d: one of them must be at least %d", c.encW, c.encH, minWidthHeight)
	}
	if c.srcW < minWidthHeight && c.srcH < minWidthHeight {
		return c, fmt.Errorf("feature cambi: src_width x src_height %dx%d: one of them must be at least %d", c.srcW, c.srcH, minWidthHeight)
	}
	if c.srcW > c.encW && c.srcH < c.encH || c.srcW < c.encW && c.srcH > c.encH {
		return c, fmt.Errorf("feature cambi: src_width x src_height %dx%d and enc_width x enc_height %dx%d scale in opposite directions", c.srcW, c.srcH, c.encW, c.encH)
	}

	// The speed-up applies only from the resolution it names.
	threshold := map[int]int{1080: 1920 * 1080, 1440: 2560 * 1440, 2160: 3840 * 2160}[s.Int("cambi_high_res_speedup")]
	c.speedup = threshold > 0 && c.encW*c.encH >= threshold

	if t := s.Float("topk"); t != defaultTopK {
		c.topk = t
	} else {
		c.topk = s.Float("cambi_topk")
	}

	eotf, vlt, err := resolveLuminance(s)
	if err != nil {
		return c, err
	}
	c.vlt = vlt

	tvi := s.Float("tvi_threshold")
	for d := 0; d < c.numDiffs; d++ {
		c.tvi[d] = tviForDiff(d+1, tvi, eotf) + c.numDiffs
		c.weights[d] = contrastWeights[d]
		c.weights32[d] = int32(contrastWeights[d])
	}

	ws := s.Int("window_size")
	c.encWindow = adjustWindow(ws, c.encW, c.encH, c.speedup)
	c.srcWindow = adjustWindow(ws, c.srcW, c.srcH, c.speedup)
	if w := max(c.encWindow, c.srcWindow); w*w >= reciprocalLimit {
		return c, fmt.Errorf("feature cambi: option window_size=%d: the window grows to %d at this resolution, above libvmaf's limit of %d", ws, w, 65)
	}

	c.setBand()
	c.reciprocal = reciprocals
	return c, nil
}

// check refuses the settings New refuses whatever the stream.
func check(s feature.Settings) error {
	_, _, err := resolveLuminance(s)
	return err
}

// resolveLuminance is the EOTF the settings name (cambi_eotf when set,
// else eotf) and the luma level of their visibility threshold.
func resolveLuminance(s feature.Settings) (eotfFunc, int, error) {
	opt := "eotf"
	if s.String("cambi_eotf") != defaultEOTF {
		opt = "cambi_eotf"
	}
	eotf, ok := eotfs[s.String(opt)]
	if !ok {
		return nil, 0, fmt.Errorf("feature cambi: option %s=%q: want bt1886 or pq", opt, s.String(opt))
	}
	vlt, ok := vltLuma(s.Float("cambi_vis_lum_threshold"), eotf)
	if !ok {
		return nil, 0, fmt.Errorf("feature cambi: option cambi_vis_lum_threshold=%g: above the EOTF's peak luminance", s.Float("cambi_vis_lum_threshold"))
	}
	return eotf, vlt, nil
}

// adjustWindow scales the window to the picture: window_size is meant
// for 4K (3840+2160 = 375·16), and is always odd.
func adjustWindow(ws, w, h int, speedup bool) int {
	ws = ws * (w + h) / 375 >> 4
	if speedup {
		ws = (ws + 1) >> 1
	}
	return ws | 1
}

// setBand finds the levels that can matter and, per level, the contrast
// steps that can respond there. A pixel's response is nonzero only if
// its level v (plus numDiffs) is at most tvi[d] and v+d+1 (plus
// numDiffs) is above vlt for some step d; its window only reads the
// counts of levels v-d-1..v+d+1. So levels below vlt-3·numDiffs+1 or
// above the highest tvi never contribute, and are not counted.
func (c *config) setBand() {
	nd := c.numDiffs
	c.bandBase = max(0, c.vlt-3*nd+1)
	c.bandSize = max(0, c.tvi[nd-1]+1-c.bandBase)
	c.active = make([]uint32, maxLevelMask+1)
	c.levelRow = make([]int16, maxLevelMask+1)
	for v := range c.levelRow {
		c.levelRow[v] = -1
		if r := v - c.bandBase; r >= 0 && r < c.bandSize && v <= maxLevel {
			c.levelRow[v] = int16(r)
		}
	}
	for v := range c.active {
		value, r := v+nd, v-c.bandBase
		if r < 0 || r >= c.bandSize {
			continue
		}
		for d := 0; d < nd; d++ {
			// The last condition holds whenever the thresholds rise
			// with the step, as they do; it keeps reads in the band.
			if value <= c.tvi[d] && value+d+1 > c.vlt && r+d+1 < c.bandSize {
				c.active[v] |= 1 << d
			}
		}
	}
}

// reciprocals are libvmaf's table of 1/i in float32: 1/i rounded to 9
// significant digits, then to float32. That double rounding makes 42
// entries differ from float32(1)/float32(i) by one unit in the last
// place, and the responses use the table's values.
var reciprocals = func() []float32 {
	r := make([]float32, reciprocalLimit)
	for i := 1; i < len(r); i++ {
		v, _ := strconv.ParseFloat(strconv.FormatFloat(1/float64(i), 'g', 9, 64), 32)
		r[i] = float32(v)
	}
	return r
}()
