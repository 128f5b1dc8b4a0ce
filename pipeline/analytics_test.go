package pipeline

import (
	"slices"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/vmaf"
)

// TestRunnerFeedsAnalytics: the monitor sees every published record with
// its index, running time and model key, and Finish closes an open drop.
func TestRunnerFeedsAnalytics(t *testing.T) {
	eng := &fakeEngine{}
	r := newTestRunner(t, eng, func(c *Config) {
		c.Pairing = PairByOrder
		c.Analytics = analytics.Config{WindowFrames: 4, AlertThreshold: 80, AlertFrames: 2}
	})
	var evs []analytics.Event
	r.Analytics().Subscribe(func(e analytics.Event) { evs = append(evs, e) })
	fs := newFrames(t)
	// Scores are 100 - (ref - dist): frames 3..5 and 10..11 score 50.
	low := map[int]bool{3: true, 4: true, 5: true, 10: true, 11: true}
	pushPair := func(i int) {
		d := byte(100)
		if low[i] {
			d = 50
		}
		push(t, r, Ref, fs.frame(100, 40*i))
		push(t, r, Dist, fs.frame(d, 40*i))
	}
	for i := range 7 {
		pushPair(i)
	}
	tk, err := r.RequestSwap(modelB)
	if err != nil {
		t.Fatal(err)
	}
	for i := 7; i < 12; i++ {
		pushPair(i)
	}
	<-tk.Done()
	finish(t, r)

	m := r.Analytics()
	if m.Scored() != 12 {
		t.Fatalf("monitor saw %d frames, want 12", m.Scored())
	}
	hist, have := m.History(0, 100)
	keyB := r.Status().ModelKeys[0]
	if have != [2]int{0, 11} || len(hist) != 12 {
		t.Fatalf("history %v %+v", have, hist)
	}
	for i, s := range hist {
		want := 100.0
		if low[i] {
			want = 50
		}
		key, label := "vmaf", modelA.Label()
		if i >= 7 {
			key, label = keyB, modelB.Label()
		}
		if s.Index != i || s.Score != want || s.Model != key || s.Label != label {
			t.Errorf("history %d = %+v, want score %v model %q labelled %q", i, s, want, key, label)
		}
	}
	if keyB == "vmaf" {
		t.Errorf("the swapped model is pooled under the first model's key")
	}
	var ws []analytics.Window
	var as []analytics.Alert
	for _, e := range evs {
		if e.Window != nil {
			ws = append(ws, *e.Window)
		}
		if e.Alert != nil {
			as = append(as, *e.Alert)
		}
	}
	if len(ws) != 3 || ws[2].First != 8 || ws[2].Model != keyB || ws[0].Start != 0 || ws[0].End != 120*time.Millisecond {
		t.Errorf("windows %+v", ws)
	}
	if len(as) != 4 {
		t.Fatalf("alerts %+v", as)
	}
	first, eos := as[1], as[3]
	if first.State != analytics.AlertEnd || first.First != 3 || first.Last != 5 || first.AtEOS {
		t.Errorf("first drop %+v", first)
	}
	// The drop open at the end closes at the end of the last frame.
	if eos.State != analytics.AlertEnd || !eos.AtEOS || eos.First != 10 || eos.End != 12*40*time.Millisecond {
		t.Errorf("drop at EOS %+v", eos)
	}
	fs.checkReleased()
}

func TestRunnerRejectsBadAnalytics(t *testing.T) {
	eng := &fakeEngine{}
	cfg := Config{Scorer: vmaf.Config{Models: []*vmaf.Model{modelA}}, newScorer: eng.newScorer, Analytics: analytics.Config{WindowFrames: 5, WindowDuration: time.Second}}
	if _, err := New(cfg); err == nil || err.Error() != "pipeline: analytics: window-frames and window-duration are exclusive" {
		t.Errorf("New = %v", err)
	}
}

func TestRunnerRange(t *testing.T) {
	eng := &fakeEngine{}
	r := newTestRunner(t, eng, func(c *Config) { c.Pairing = PairByOrder; c.Recent = 4 })
	fs := newFrames(t)
	for range 10 {
		push(t, r, Ref, fs.frame(100, -1))
		push(t, r, Dist, fs.frame(90, -1))
	}
	finish(t, r)
	for _, tc := range []struct {
		from, to, limit int
		want            []int
	}{
		{0, 100, 100, []int{6, 7, 8, 9}},
		{7, 8, 100, []int{7, 8}},
		{0, 100, 1, []int{6}},
		{9, 9, 5, []int{9}},
		{10, 30, 5, nil},
		{5, 4, 5, nil},
	} {
		var got []int
		for _, rec := range r.Range(tc.from, tc.to, tc.limit) {
			got = append(got, rec.Index)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Range(%d, %d, %d) = %v, want %v", tc.from, tc.to, tc.limit, got, tc.want)
		}
	}
	fs.checkReleased()
}
