package vmaf

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkLearned times the learned models, for the README's table:
//
//	go test -run '^$' -bench Learned -benchtime 60x ./vmaf
//
// regressor/576x324: vmaf_v0.6.1 alone, then with vmaf_tiny_v2 (and with
// fr_regressor_v1) beside it: the difference is what a regressor adds to a
// frame. predict: one regressor call alone. nr/1920x1080: nr_metric_v1
// alone on the distorted frames (no reference), engine and ONNX Runtime
// threads alike.
func BenchmarkLearned(b *testing.B) {
	tiny := tinyDir(b)
	load := func(spec string) *Model {
		m, err := ParseModelSpec(spec)
		if err != nil {
			b.Fatal(err)
		}
		return m
	}
	svm := load("version=vmaf_v0.6.1")
	var ref, dist []*Picture
	for _, c := range []struct {
		name   string
		models []*Model
	}{
		{"svm", []*Model{svm}},
		{"svm+vmaf_tiny_v2", []*Model{svm, load("path=" + filepath.Join(tiny, "vmaf_tiny_v2.onnx"))}},
		{"svm+fr_regressor_v1", []*Model{svm, load("path=" + filepath.Join(tiny, "fr_regressor_v1.onnx"))}},
	} {
		b.Run("regressor/576x324/"+c.name, func(b *testing.B) {
			if ref == nil {
				ref, dist = benchPair(b, 576, 324, 4, "flower_576x324_x264_crf22")
			}
			benchContext(b, ref, dist, 1, c.models...)
		})
	}
	b.Run("predict/vmaf_tiny_v2", func(b *testing.B) {
		m := load("path=" + filepath.Join(tiny, "vmaf_tiny_v2.onnx"))
		x, out := []float64{0.93, 0.45, 0.8, 0.88, 0.92, 4}, make([]float64, 1)
		b.ReportAllocs()
		for b.Loop() {
			if err := m.score(x, out); err != nil {
				b.Fatal(err)
			}
		}
	})
	var nrDist []*Picture
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("nr/1920x1080/threads=%d", threads), func(b *testing.B) {
			if nrDist == nil {
				_, nrDist = benchPair(b, 1920, 1080, 4, "dune_1920x1080_x264_crf38")
			}
			m := load(fmt.Sprintf("path=%s:threads=%d", filepath.Join(tiny, "nr_metric_v1.onnx"), threads))
			benchContext(b, nrDist, nrDist, threads, m)
		})
	}
}
