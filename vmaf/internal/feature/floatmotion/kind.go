// Package floatmotion is libvmaf's float_motion: the mean absolute
// difference between consecutive blurred reference pictures, and motion2,
// the smaller of a frame's motion and the next one's, which libvmaf's
// float VMAF models read.
package floatmotion

import (
	"fmt"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// Kind is float_motion with libvmaf 3.2.0's options.
var Kind = &feature.Kind{
	Name: "float_motion",
	Options: []feature.Option{
		{Name: "debug", Type: feature.Bool, Default: 1},
		{Name: "motion_force_zero", Alias: "force_0", Type: feature.Bool, Param: true},
		{Name: "motion_fps_weight", Alias: "mfw", Type: feature.Double, Default: 1, Min: 0, Max: 5, Param: true},
		{Name: "motion_blend_factor", Alias: "mbf", Type: feature.Double, Default: 1, Min: 0, Max: 1, Param: true},
		{Name: "motion_blend_offset", Alias: "mbo", Type: feature.Double, Default: 40, Min: 0, Max: 1000, Param: true},
		{Name: "motion_add_scale1", Alias: "mdc", Type: feature.Bool, Param: true},
		{Name: "motion_filter_size", Alias: "mfs", Type: feature.Int, Default: 5, Min: 0, Max: 9, Param: true},
		{Name: "motion_add_uv", Alias: "mau", Type: feature.Bool, Param: true},
		{Name: "motion_max_val", Alias: "mmxv", Type: feature.Double, Default: 10000, Min: 0, Max: 10000, Param: true},
	},
	Outputs:       outputs,
	NewSequential: newSequential,
}

// The values an instance writes, in this order, libvmaf's (whose files
// keep the order its extractor writes in); motion only in debug mode
// (libvmaf's default).
const (
	outMotion2 = iota
	outMotion
	outMotion3
)

func outputs(_ feature.Format, s feature.Settings) []string {
	names := []string{"motion2", "motion", "motion3"}
	if !s.Bool("debug") {
		names = []string{"motion2", "motion3"}
	}
	for i := range names {
		names[i] += s.Suffix()
	}
	return names
}

// config is what an instance computes with, read once from the settings.
type config struct {
	debug       bool
	forceZero   bool
	fpsWeight   float64
	blendFactor float64
	blendOffset float64
	addScale1   bool
	addUV       bool
	maxVal      float64
	filter      []float32
}

// The blur kernels: libvmaf's 5-tap Gaussian (its default), its 3-tap
// one, and the 5-tap identity of motion_filter_size=1.
var (
	filter5 = []float32{0.054488685, 0.244201342, 0.402619947, 0.244201342, 0.054488685}
	filter3 = []float32{0.166378498, 0.667243004, 0.166378498}
	filter1 = []float32{0, 0, 1, 0, 0}
)

// bilinearMaxWidth is the widest picture libvmaf's bilinear scaler makes.
const bilinearMaxWidth = 7680

func readConfig(f feature.Format, s feature.Settings) (config, error) {
	c := config{
		debug:       s.Bool("debug"),
		forceZero:   s.Bool("motion_force_zero"),
		fpsWeight:   s.Float("motion_fps_weight"),
		blendFactor: s.Float("motion_blend_factor"),
		blendOffset: s.Float("motion_blend_offset"),
		addScale1:   s.Bool("motion_add_scale1"),
		addUV:       s.Bool("motion_add_uv"),
		maxVal:      s.Float("motion_max_val"),
		filter:      filter5,
	}
	switch s.Int("motion_filter_size") {
	case 1:
		c.filter = filter1
	case 3:
		c.filter = filter3
	}
	switch f.BitDepth {
	case 8, 10, 12, 16:
	default:
		return c, fmt.Errorf("feature float_motion: bit depth %d is not supported (8, 10, 12 or 16)", f.BitDepth)
	}
	if c.addScale1 && int(float64(f.Width)*0.5+0.5) > bilinearMaxWidth {
		return c, fmt.Errorf("feature float_motion: motion_add_scale1 scales to at most %d samples a row, not %d",
			bilinearMaxWidth, int(float64(f.Width)*0.5+0.5))
	}
	if c.addUV && f.Chroma == feature.Chroma400 {
		return c, fmt.Errorf("feature float_motion: motion_add_uv needs chroma planes; the stream is 4:0:0")
	}
	if c.forceZero {
		return c, nil
	}
	// The blur reflects inside the picture only if each side exceeds its
	// radius; libvmaf reads outside its buffers below that.
	need := len(c.filter)/2 + 1
	planes := 1
	if c.addUV {
		planes = 3
	}
	for i := range planes {
		if w, h := f.PlaneSize(i); w < need || h < need {
			return c, fmt.Errorf("feature float_motion: plane %d is %dx%d; the blur needs at least %dx%d", i, w, h, need, need)
		}
	}
	if c.addUV && c.addScale1 {
		// libvmaf scales the chroma planes at a row pitch computed from
		// their width though they are laid out at the luma's, so it reads
		// memory it never wrote unless both pitches agree.
		if w, _ := f.PlaneSize(1); pitch(w) != pitch(f.Width) {
			return c, fmt.Errorf("feature float_motion: motion_add_uv with motion_add_scale1 is not supported for subsampled chroma (libvmaf's result depends on memory it never writes)")
		}
	}
	return c, nil
}

// pitch is libvmaf's row pitch, in samples, of a float plane w wide.
func pitch(w int) int { return (w + 7) &^ 7 }
