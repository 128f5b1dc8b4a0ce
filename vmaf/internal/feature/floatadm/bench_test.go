package floatadm

import (
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

func BenchmarkExtract1080p(b *testing.B) {
	f := feature.Format{Width: 1920, Height: 1080, BitDepth: 8, Chroma: feature.Chroma420}
	ref := pattern(f, 0)
	dist := pattern(f, 1)
	x, err := Kind.New(f, Kind.Defaults())
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	out := make([]float64, len(Kind.Outputs(f, Kind.Defaults())))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := x.Extract(i, ref, dist, out); err != nil {
			b.Fatal(err)
		}
	}
}
