package ffsource

import (
	"testing"
)

// BenchmarkDecode measures decoding alone: frames/s through Next and
// Release, for the comparison with decode+score in the README.
func BenchmarkDecode(b *testing.B) {
	ref := goldenY4M(b, "flower_576x324_ref.y4m")
	clips := []struct {
		name, out string
		args      []string
	}{
		{"ffv1", "flower_ffv1.mkv", []string{"-c:v", "ffv1"}},
		{"x264", "flower_x264.mkv", []string{"-c:v", "libx264", "-crf", "23", "-preset", "veryfast"}},
	}
	for _, c := range clips {
		path := encode(b, ref, c.out, c.args...)
		b.Run(c.name, func(b *testing.B) {
			frames := 0
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				src, err := Open(path, Options{})
				if err != nil {
					b.Fatal(err)
				}
				for {
					f, err := src.Next()
					if err != nil {
						break
					}
					f.Release()
					frames++
				}
				src.Close()
			}
			b.ReportMetric(float64(frames)/b.Elapsed().Seconds(), "frames/s")
		})
	}
}
