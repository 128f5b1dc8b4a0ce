// Package cambi is libvmaf's CAMBI, Netflix's banding detector: for
// each picture it finds flat (masked) regions, looks in a window around
// each of their pixels for neighbouring luma levels that differ by a
// visible but small step, and pools those contrast responses over five
// scales. With full_ref it scores the reference too and reports how much
// banding the distorted picture adds.
//
// Each frame is scored on its own: libvmaf 3.2.0's CAMBI keeps no state
// from one frame to the next, so this is a per-frame extractor.
package cambi

import (
	"fmt"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// Defaults and limits, as libvmaf declares them.
const (
	defaultTopK     = 0.6
	defaultEOTF     = "bt1886"
	minWidthHeight  = 216 // one of the scored dimensions must reach this
	numScales       = 5
	maskFilterSize  = 7
	reciprocalLimit = 4226 // window_size² must stay below this (libvmaf's LUT)
)

// Kind is CAMBI with libvmaf 3.2.0's options and output names.
var Kind = &feature.Kind{
	Name: "cambi",
	Options: []feature.Option{
		{Name: "cambi_max_val", Alias: "cmxv", Type: feature.Double, Default: 1000, Min: 0, Max: 1000, Param: true},
		{Name: "enc_width", Alias: "encw", Type: feature.Int, Default: 0, Min: 180, Max: 7680, Param: true},
		{Name: "enc_height", Alias: "ench", Type: feature.Int, Default: 0, Min: 150, Max: 7680, Param: true},
		{Name: "enc_bitdepth", Alias: "encbd", Type: feature.Int, Default: 0, Min: 6, Max: 16, Param: true},
		{Name: "src_width", Alias: "srcw", Type: feature.Int, Default: 0, Min: 320, Max: 7680, Param: true},
		{Name: "src_height", Alias: "srch", Type: feature.Int, Default: 0, Min: 200, Max: 4320, Param: true},
		{Name: "window_size", Alias: "ws", Type: feature.Int, Default: 65, Min: 15, Max: 127, Param: true},
		// topk and eotf have no alias in libvmaf: their names stand in.
		{Name: "topk", Alias: "topk", Type: feature.Double, Default: defaultTopK, Min: 0.0001, Max: 1, Param: true},
		{Name: "cambi_topk", Alias: "ctpk", Type: feature.Double, Default: defaultTopK, Min: 0.0001, Max: 1, Param: true},
		{Name: "tvi_threshold", Alias: "tvit", Type: feature.Double, Default: 0.019, Min: 0.0001, Max: 1, Param: true},
		{Name: "cambi_vis_lum_threshold", Alias: "vlt", Type: feature.Double, Default: 0, Min: 0, Max: 300, Param: true},
		{Name: "max_log_contrast", Alias: "mlc", Type: feature.Int, Default: 2, Min: 0, Max: 5, Param: true},
		{Name: "heatmaps_path", Type: feature.String},
		{Name: "full_ref", Type: feature.Bool},
		{Name: "eotf", Alias: "eotf", Type: feature.String, DefaultString: defaultEOTF, Param: true},
		{Name: "cambi_eotf", Alias: "ceot", Type: feature.String, DefaultString: defaultEOTF, Param: true},
		{Name: "cambi_high_res_speedup", Alias: "hrs", Type: feature.Int, Default: 0, Min: 0, Max: 2160, Param: true},
	},
	Outputs: outputs,
	New:     newExtractor,
	Check:   check,
}

// outputs: libvmaf renames only the distorted score for non-default
// parameters; the full-reference values keep their plain names.
func outputs(_ feature.Format, s feature.Settings) []string {
	names := []string{"cambi" + s.Suffix()}
	if s.Bool("full_ref") {
		names = append(names, "cambi_source", "cambi_full_reference")
	}
	return names
}

// extractor is one stream's CAMBI instance with its scratch memory.
type extractor struct {
	cfg      config
	enc, src geometry
	buf      buffers
	heat     *heatmaps // nil unless heatmaps_path is set
	// vec: the AVX-512 kernels may run, as the CPU mask was when the
	// instance was made.
	vec bool
}

func newExtractor(f feature.Format, s feature.Settings) (feature.Extractor, error) {
	cfg, err := newConfig(f, s)
	if err != nil {
		return nil, err
	}
	x := &extractor{cfg: cfg, vec: hasVector()}
	x.enc = newGeometry(f.Width, f.Height, cfg.encW, cfg.encH, cfg.encWindow, cfg.speedup)
	x.src = newGeometry(f.Width, f.Height, cfg.srcW, cfg.srcH, cfg.srcWindow, cfg.speedup)
	maxW, maxH := x.enc.w, x.enc.h
	if cfg.fullRef {
		maxW, maxH = max(maxW, x.src.w), max(maxH, x.src.h)
	}
	path := s.String("heatmaps_path")
	x.buf = newBuffers(maxW, maxH, max(x.enc.pad, x.src.pad), path != "", &cfg)
	if path != "" {
		if x.heat, err = openHeatmaps(path, cfg.encW, cfg.encH, x.enc.w, x.enc.h); err != nil {
			return nil, err
		}
	}
	return x, nil
}

func (x *extractor) Extract(index int, ref, dist *feature.Frame, out []float64) error {
	distScore, err := x.score(index, dist, &x.enc, x.heat)
	if err != nil {
		return err
	}
	out[0] = min(distScore, x.cfg.maxVal)
	if !x.cfg.fullRef {
		return nil
	}
	srcScore, err := x.score(index, ref, &x.src, nil)
	if err != nil {
		return err
	}
	out[1] = min(srcScore, x.cfg.maxVal)
	out[2] = min(max(0, distScore-srcScore), x.cfg.maxVal)
	return nil
}

func (x *extractor) Close() {
	if x.heat != nil {
		x.heat.close()
		x.heat = nil
	}
}

// score is one picture's CAMBI at geometry g.
func (x *extractor) score(index int, fr *feature.Frame, g *geometry, heat *heatmaps) (float64, error) {
	b := &x.buf
	w, h := g.w, g.h
	img := b.img[:w*h]
	if err := toTenBit(fr.Planes[0], g, img, x.vec); err != nil {
		return 0, fmt.Errorf("feature cambi: frame %d: %w", index, err)
	}
	if x.cfg.encBitDepth < 10 {
		antiDither(img, w, h, x.vec)
	}
	spatialMask(img, b.mask[:w*h], w, h, b, x.vec)

	var perScale [numScales]float64
	for scale := 0; scale < numScales; scale++ {
		if scale > 0 || g.speedup {
			nw, nh := (w+1)>>1, (h+1)>>1
			if x.vec {
				decimate(img, w, nw, nh, evensPrefix16)
				decimate(b.mask, w, nw, nh, evensPrefix8)
			} else {
				decimate(img, w, nw, nh, nil)
				decimate(b.mask, w, nw, nh, nil)
			}
			w, h = nw, nh
			img = img[:w*h]
		}
		modeFilter(img, w, h, b.modeRows, x.vec)
		var all []float32
		if heat != nil {
			all = b.cvals[:w*h]
		}
		pos, sum := x.cValues(img, b.mask[:w*h], w, h, g.pad, all)
		if heat != nil {
			if err := heat.write(scale, index, all, w, h, g.window, &x.cfg); err != nil {
				return 0, err
			}
		}
		perScale[scale] = topKMean(pos, sum, w*h, x.cfg.topk)
	}
	// Scale weights 16, 8, 4, 2, 1, summed in that order as libvmaf does.
	sum := 0.0
	for scale, s := range perScale {
		sum += s * float64(int(16)>>scale)
	}
	return sum / float64(g.window*g.window), nil
}
