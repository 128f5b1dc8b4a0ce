package main

import (
	"context"
	"io"
	"strconv"
	"testing"

	"github.com/vmafsink/vmafsink/internal/ffsource"
)

// BenchmarkFFmpegPath compares, on one clip pair, decoding the distorted
// H.264 encode alone, scoring the pre-decoded y4m pair alone, and the
// whole FFmpeg path (decode and score together), in frames per second.
// With decoding on its own goroutine, decode+score should run at close
// to the slower of the two, not at their sum.
//
//	go test -run XXX -bench FFmpegPath -benchtime 3x ./cmd/vmaf-score
func BenchmarkFFmpegPath(b *testing.B) {
	ref := goldenY4M(b, "flower_576x324_ref.y4m")
	enc := encode(b, ref, "bench_x264.mp4", "-c:v", "libx264", "-crf", "30", "-preset", "medium")
	dec := encode(b, enc, "bench_x264.y4m", "-f", "yuv4mpegpipe", "-strict", "-1")
	for _, threads := range []int{1, 2} {
		th := strconv.Itoa(threads)
		b.Run("decode/threads="+th, func(b *testing.B) {
			frames := 0
			for i := 0; i < b.N; i++ {
				src, err := ffsource.Open(enc, ffsource.Options{DecoderThreads: threads})
				if err != nil {
					b.Fatal(err)
				}
				for {
					f, err := src.Next()
					if err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
					f.Release()
					frames++
				}
				src.Close()
			}
			b.ReportMetric(float64(frames)/b.Elapsed().Seconds(), "frames/s")
		})
		for _, c := range []struct{ name, dist string }{{"score", dec}, {"decode+score", enc}} {
			b.Run(c.name+"/threads="+th, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if code := run(context.Background(), []string{"-r", ref, "-d", c.dist, "-q", "--threads", th},
						io.Discard, io.Discard); code != 0 {
						b.Fatalf("exit %d", code)
					}
				}
				b.ReportMetric(float64(48*b.N)/b.Elapsed().Seconds(), "frames/s")
			})
		}
	}
}
