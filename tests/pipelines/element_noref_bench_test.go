package pipelines

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
	"github.com/vmafsink/vmafsink/vmaf"
)

// BenchmarkElementNoReference is BenchmarkElementVsEngine in no-reference
// mode: nr_metric_v1 on the distorted stream alone (the flower crf22
// clip as raw files: 480 frames at 576x324, and scaled up, 192 at
// 1920x1080), the element's dist_sink with no-reference=true against the
// engine given each distorted frame as both sides. Engine and ONNX
// Runtime get threads each.
//
//	go test -run XXX -bench ElementNoReference -benchtime 3x ./tests/pipelines
func BenchmarkElementNoReference(b *testing.B) {
	path := filepath.Join(tinyModels(b), "nr_metric_v1.onnx")
	for _, threads := range []int{1, 2} {
		model, err := vmaf.ParseModelSpec(fmt.Sprintf("path=%s:threads=%d", path, threads))
		if err != nil {
			b.Fatal(err)
		}
		for _, sz := range []struct{ w, h, repeat int }{{576, 324, 10}, {1920, 1080, 4}} {
			dist := gsttest.Clip(b, "flower_576x324_x264_crf22")
			if sz.w != 576 {
				dist = gsttest.ScaledClip(b, "flower_576x324_x264_crf22", sz.w, sz.h)
			}
			src, n := gsttest.RepeatedSource(b, dist, sz.repeat)
			raw := gsttest.RawPath(src)
			sc := benchScenario{fmt.Sprintf("rawfiles-%dx%d/threads=%d", sz.w, sz.h, threads), sz.w, sz.h, src, src, raw, raw, n, true}
			b.Run(sc.name, func(b *testing.B) {
				benchElementVsEngine(b, sc, model, threads, fmt.Sprintf(" no-reference=true model=path=%s tiny-threads=%d", path, threads))
			})
		}
	}
}
