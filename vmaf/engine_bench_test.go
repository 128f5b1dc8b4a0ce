package vmaf

import (
	"fmt"
	"testing"
)

// BenchmarkContext scores golden frames through a Context with the
// default model, as vmaf-score does:
//
//	go test -run '^$' -bench Context -benchtime 60x ./vmaf
func BenchmarkContext(b *testing.B) {
	for _, clip := range []string{"flower_576x324_x264_crf22", "dune_1920x1080_x264_crf38"} {
		g := loadGolden(b, clip, 4)
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%dx%d/threads=%d", g.ref[0].Width, g.ref[0].Height, threads), func(b *testing.B) {
				m, err := BuiltinModel("vmaf_v0.6.1")
				if err != nil {
					b.Fatal(err)
				}
				ctx, err := NewContext(Config{Models: []*Model{m}, Threads: threads, Engine: "native", OnResult: func(*Result) {}})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := ctx.Submit(g.ref[i%len(g.ref)], g.dist[i%len(g.dist)], nil); err != nil {
						b.Fatal(err)
					}
				}
				if err := ctx.Flush(); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
			})
		}
	}
}
