package motion

import (
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/internal/kit"
)

// Outputs are the metrics integer motion gives at its defaults, in the
// order of Scores' fields.
var Outputs = []string{"integer_motion", "integer_motion2", "integer_motion3"}

// Kind is libvmaf 3.2.0's integer "motion" extractor. It has no
// constructor: the scheduler runs integer motion itself, split into the
// parallel Blur and the in-order SAD and Seq, and always, so that a model
// swapped in later finds its history.
var Kind = &feature.Kind{Name: "motion", Options: []feature.Option{
	{Name: "motion_force_zero", Alias: "force_0", Type: feature.Bool, Param: true},
	{Name: "motion_blend_factor", Alias: "mbf", Type: feature.Double, Default: 1, Min: 0, Max: 1, Param: true},
	{Name: "motion_blend_offset", Alias: "mbo", Type: feature.Double, Default: 40, Min: 0, Max: 1000, Param: true},
	{Name: "motion_fps_weight", Alias: "mfw", Type: feature.Double, Default: 1, Min: 0, Max: 5, Param: true},
	{Name: "motion_max_val", Alias: "mmxv", Type: feature.Double, Default: 10000, Min: 0, Max: 10000, Param: true},
	{Name: "motion_five_frame_window", Alias: "mffw", Type: feature.Bool, Param: true},
	{Name: "motion_moving_average", Alias: "mma", Type: feature.Bool, Param: true},
	{Name: "debug", Type: feature.Bool},
}, Outputs: kit.Suffixed(Outputs...)}
