package vmaf

import (
	"fmt"
	"math"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/cpu"
)

// TestCPUMaskSameScores scores a golden pair with every vector kernel the
// machine has and again with the CPU mask turning them off, and requires
// identical bits: the mask may change speed, never a value.
func TestCPUMaskSameScores(t *testing.T) {
	defer SetCPUMask(0)
	g := loadGolden(t, goldenNames(t)[0], 6)
	m, err := BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Models: []*Model{m}, Threads: 2, Features: []string{"psnr", "float_ssim", "float_vif", "float_adm", "float_motion", "cambi", "psnr_hvs", "speed_chroma", "speed_temporal"}}
	score := func(mask uint64) []*Result {
		SetCPUMask(mask)
		return scoreAll(t, cfg, g.ref, g.dist)
	}
	want := score(0)
	for _, mask := range []uint64{cpu.AVX512, cpu.AVX2 | cpu.AVX512, cpu.SSE2} {
		t.Run(fmt.Sprintf("mask=%d", mask), func(t *testing.T) {
			got := score(mask)
			if len(got) != len(want) {
				t.Fatalf("%d results, unmasked %d", len(got), len(want))
			}
			for i := range want {
				if len(got[i].Metrics) != len(want[i].Metrics) {
					t.Fatalf("frame %d: %d metrics, unmasked %d", i, len(got[i].Metrics), len(want[i].Metrics))
				}
				for j, w := range want[i].Metrics {
					if g := got[i].Metrics[j]; g.Name != w.Name || math.Float64bits(g.Value) != math.Float64bits(w.Value) {
						t.Errorf("frame %d %s: %v, unmasked %s %v", i, g.Name, g.Value, w.Name, w.Value)
					}
				}
			}
		})
	}
}
