package pipeline

import (
	"errors"
	"io"
	"math"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/internal/y4m"
	"github.com/vmafsink/vmafsink/vmaf"
)

// The motion of a frame compares its reference with its predecessor's and
// its motion2 looks at its successor's: these tests score a golden pair
// with the real engine while frames around the scored ones are paused,
// dropped or flushed, and hold every score to the one the undisturbed
// stream gives.

const clipFrames = 20

func readGoldenClip(t testing.TB, name string) []*vmaf.Picture {
	t.Helper()
	path := filepath.Join("..", "testdata", "goldens", "clips", name+".y4m.xz")
	cmd := exec.Command("xz", "-dc", path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("xz %s: %v", path, err)
	}
	defer func() {
		out.Close()
		_ = cmd.Wait()
	}()
	r, err := y4m.NewReader(out)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	f := r.Format()
	chroma, err := vmaf.ParseChroma(f.Chroma)
	if err != nil {
		t.Fatal(err)
	}
	var pics []*vmaf.Picture
	for len(pics) < clipFrames {
		fr := y4m.NewFrame(f)
		if err := r.ReadFrame(fr); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		pics = append(pics, &vmaf.Picture{Width: f.Width, Height: f.Height, BitDepth: f.BitDepth,
			Chroma: chroma, Planes: fr.Planes, Strides: fr.Strides})
	}
	return pics
}

type goldenClip struct{ ref, dist []*vmaf.Picture }

func loadClip(t testing.TB) goldenClip {
	t.Helper()
	c := goldenClip{readGoldenClip(t, "flower_576x324_ref"), readGoldenClip(t, "flower_576x324_x264_crf22")}
	if len(c.ref) != clipFrames || len(c.dist) != clipFrames {
		t.Fatalf("clip has %d and %d frames, want %d", len(c.ref), len(c.dist), clipFrames)
	}
	return c
}

// engineRunner is a Runner on the native engine; gate, when not nil,
// holds the delivery of the first result until it is closed, which makes
// the scorer look saturated.
func engineRunner(t *testing.T, mod func(*Config), gate chan struct{}) (*Runner, *collector) {
	t.Helper()
	m, err := vmaf.BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Scorer: vmaf.Config{Models: []*vmaf.Model{m}, Threads: 2, Engine: "native"}, Pairing: PairByOrder}
	if mod != nil {
		mod(&cfg)
	}
	if gate != nil {
		cfg.newScorer = func(c vmaf.Config) (scorer, error) {
			deliver := c.OnResult
			c.OnResult = func(res *vmaf.Result) {
				<-gate
				deliver(res)
			}
			return vmaf.NewContext(c)
		}
	}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r, collect(r)
}

func pushClipPair(t *testing.T, r *Runner, c goldenClip, i int) {
	t.Helper()
	push(t, r, Ref, Frame{Picture: c.ref[i], Timing: Untimed})
	push(t, r, Dist, Frame{Picture: c.dist[i], Timing: Untimed})
}

// waitIdle waits until at most one submitted pair (the one waiting for
// its successor's motion) is unfinished, so that in drop mode the next
// pair finds room, as it would behind a source slower than the scorer.
func waitIdle(t *testing.T, r *Runner) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		r.mu.Lock()
		sc := r.scoring
		r.mu.Unlock()
		if sc == nil {
			return
		}
		sc.mu.Lock()
		busy := sc.submitted - sc.completed
		sc.mu.Unlock()
		if busy <= 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d pairs still in flight: %+v", busy, r.Status().Counters)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// scoreClip scores frames [from, to) of the clip, undisturbed, as one stream.
func scoreClip(t *testing.T, c goldenClip, from, to int) map[int]*Record {
	t.Helper()
	r, recs := engineRunner(t, nil, nil)
	for i := from; i < to; i++ {
		pushClipPair(t, r, c, i)
	}
	finish(t, r)
	out := map[int]*Record{}
	for _, rec := range recs.records() {
		out[rec.Index+from] = rec
	}
	if len(out) != to-from {
		t.Fatalf("undisturbed run scored %d frames, want %d", len(out), to-from)
	}
	return out
}

// sameScores checks that every record equals the undisturbed stream's at
// index+offset, and that exactly the frames in want were scored.
func sameScores(t *testing.T, got []*Record, base map[int]*Record, offset int, want []int) {
	t.Helper()
	var idx []int
	for _, rec := range got {
		i := rec.Index + offset
		idx = append(idx, i)
		b, ok := base[i]
		if !ok {
			t.Errorf("frame %d: no such frame in the undisturbed run", i)
			continue
		}
		if math.Abs(rec.Score-b.Score) > 1e-9 {
			t.Errorf("frame %d: score %.9f, undisturbed %.9f", i, rec.Score, b.Score)
		}
		for _, m := range b.Metrics {
			if v, ok := rec.Get(m.Name); !ok || math.Abs(v-m.Value) > 1e-9 {
				t.Errorf("frame %d: %s = %v, undisturbed %v", i, m.Name, v, m.Value)
			}
		}
	}
	if len(idx) != len(want) {
		t.Fatalf("scored frames %v, want %v", idx, want)
	}
	for k := range want {
		if idx[k] != want[k] {
			t.Fatalf("scored frames %v, want %v", idx, want)
		}
	}
}

// without lists the frames below n outside the inclusive ranges gaps.
func without(n int, gaps ...[2]int) []int {
	var out []int
	for i := range n {
		in := false
		for _, g := range gaps {
			in = in || (i >= g[0] && i <= g[1])
		}
		if !in {
			out = append(out, i)
		}
	}
	return out
}

func TestFaultPauseSkipKeepsScores(t *testing.T) {
	c := loadClip(t)
	base := scoreClip(t, c, 0, clipFrames)
	cases := []struct {
		name   string
		pauses [][2]int // inclusive ranges of frames pushed while paused
		bp     Backpressure
	}{
		{"one frame", [][2]int{{11, 11}}, Block},
		{"a run", [][2]int{{5, 9}}, Block},
		{"from the first frame", [][2]int{{0, 2}}, Block},
		{"to the end", [][2]int{{14, clipFrames - 1}}, Block},
		{"two runs", [][2]int{{3, 4}, {8, 12}}, Block},
		{"a run with backpressure drop", [][2]int{{5, 9}}, Drop},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, recs := engineRunner(t, func(cfg *Config) { cfg.Backpressure = tc.bp }, nil)
			for i := range clipFrames {
				for _, p := range tc.pauses {
					var err error
					switch i {
					case p[0]:
						_, err = r.Pause()
					case p[1] + 1:
						_, err = r.Resume()
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				if tc.bp == Drop {
					waitIdle(t, r)
				}
				pushClipPair(t, r, c, i)
			}
			finish(t, r)
			want := without(clipFrames, tc.pauses...)
			sameScores(t, recs.records(), base, 0, want)
			if st := r.Status().Counters; st.Skipped != uint64(clipFrames-len(want)) || st.Dropped != 0 {
				t.Errorf("skipped %d dropped %d, want %d and 0", st.Skipped, st.Dropped, clipFrames-len(want))
			}
		})
	}
}

func TestFaultDropKeepsScores(t *testing.T) {
	c := loadClip(t)
	base := scoreClip(t, c, 0, clipFrames)
	gate := make(chan struct{})
	r, recs := engineRunner(t, func(cfg *Config) { cfg.Backpressure = Drop }, gate)
	// The first result is held, so the scorer fills up and the pairs after
	// that are dropped, then it catches up and scores the rest.
	const lastDropped = 9
	pushed := make(chan struct{})
	go func() {
		defer close(pushed)
		for i := 0; i <= lastDropped; i++ {
			if err := r.Push(Ref, Frame{Picture: c.ref[i], Timing: Untimed}); err != nil {
				t.Error(err)
			}
			if err := r.Push(Dist, Frame{Picture: c.dist[i], Timing: Untimed}); err != nil {
				t.Error(err)
			}
		}
	}()
	select {
	case <-pushed:
	case <-time.After(time.Minute):
		close(gate)
		t.Fatal("a push waited for the held scorer in drop mode")
	}
	dropped := r.Status().Counters.Dropped
	if dropped == 0 {
		t.Fatal("no pair dropped while the scorer was held")
	}
	firstDropped := lastDropped + 1 - int(dropped)
	close(gate)
	// Every frame before the drop but the last, whose motion2 waits for
	// the dropped successor, is scored before the next push.
	for i := lastDropped + 1; i < clipFrames; i++ {
		waitIdle(t, r)
		pushClipPair(t, r, c, i)
	}
	finish(t, r)
	if got := r.Status().Counters.Dropped; got != dropped {
		t.Fatalf("dropped %d pairs, want only the %d dropped while held", got, dropped)
	}
	sameScores(t, recs.records(), base, 0, without(clipFrames, [2]int{firstDropped, lastDropped}))
}

func TestFaultFlushStartsNewStream(t *testing.T) {
	c := loadClip(t)
	before := scoreClip(t, c, 0, 8)
	after := scoreClip(t, c, 12, clipFrames)
	r, recs := engineRunner(t, nil, nil)
	for i := range 8 {
		pushClipPair(t, r, c, i)
	}
	// A seek: the frames after it are a new stream, as libvmaf would
	// score them on their own, while indices carry on.
	for _, s := range []Side{Ref, Dist} {
		r.FlushStart(s)
	}
	r.FlushStop(Ref)
	r.FlushStop(Dist)
	for i := 12; i < clipFrames; i++ {
		pushClipPair(t, r, c, i)
	}
	finish(t, r)
	got := recs.records()
	if len(got) != 8+clipFrames-12 {
		t.Fatalf("%d records, want %d", len(got), 8+clipFrames-12)
	}
	sameScores(t, got[:8], before, 0, without(8))
	sameScores(t, got[8:], after, 12-8, without(clipFrames, [2]int{0, 11}))
}

// BenchmarkPairCost is what a pair costs the engine scored and skipped
// (paused): one worker, so time is CPU time.
func BenchmarkPairCost(b *testing.B) {
	c := loadClip(b)
	m, err := vmaf.BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		b.Fatal(err)
	}
	for _, paused := range []bool{false, true} {
		name := "scored"
		if paused {
			name = "skipped"
		}
		b.Run(name, func(b *testing.B) {
			r, err := New(Config{Scorer: vmaf.Config{Models: []*vmaf.Model{m}, Threads: 1, Engine: "native"}, Pairing: PairByOrder})
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			if paused {
				if _, err := r.Pause(); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for i := range b.N {
				k := i % clipFrames
				if err := r.Push(Ref, Frame{Picture: c.ref[k], Timing: Untimed}); err != nil {
					b.Fatal(err)
				}
				if err := r.Push(Dist, Frame{Picture: c.dist[k], Timing: Untimed}); err != nil {
					b.Fatal(err)
				}
			}
			if err := r.Finish(); err != nil {
				b.Fatal(err)
			}
		})
	}
}
