package pipeline

import (
	"runtime"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf"
)

// BenchmarkPendingFrameMemory measures what a frame waiting for its
// partner costs the Runner: reference frames of 1280x720 I420 from a
// bounded pool are pushed with no distorted frame, so they all wait. The
// first MaxHeld keep the host's memory (zero-copy: nothing here); the
// rest are copied. Reported: Go heap bytes per copied frame. (Frames not
// from a bounded pool are all held zero-copy.)
func BenchmarkPendingFrameMemory(b *testing.B) {
	const (
		w, h    = 1280, 720
		pending = 100
	)
	src, err := vmaf.NewPicture(w, h, 8, vmaf.Chroma420)
	if err != nil {
		b.Fatal(err)
	}
	var perFrame float64
	for range b.N {
		r, err := New(Config{
			Scorer:     vmaf.Config{Models: []*vmaf.Model{modelA}},
			Pairing:    PairByOrder,
			MaxPending: pending,
			newScorer:  (&fakeEngine{}).newScorer,
		})
		if err != nil {
			b.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range pending {
			if err := r.Push(Ref, Frame{Picture: src, Timing: Untimed, HoldLimit: pending}); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		copied := pending - DefaultMaxHeld
		perFrame = float64(after.HeapAlloc-before.HeapAlloc) / float64(copied)
		if st := r.Status(); st.Pending[Ref] != pending {
			b.Fatalf("%d frames pending, want %d", st.Pending[Ref], pending)
		}
		r.Close()
	}
	b.ReportMetric(perFrame, "B/copied-frame")
	b.ReportMetric(float64(w*h*3/2), "B/picture")
}
