package analytics

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// feed adds one sample per score, index i, running time i×step (NoTime
// when step is 0), model "vmaf", and returns the events.
func feed(t *testing.T, m *Monitor, scores []float64, step time.Duration) []Event {
	t.Helper()
	var evs []Event
	cancel := m.Subscribe(func(e Event) { evs = append(evs, e) })
	defer cancel()
	for i, s := range scores {
		rt := NoTime
		if step > 0 {
			rt = time.Duration(i) * step
		}
		m.Add(Sample{Index: i, RunningTime: rt, Model: "vmaf", Score: s})
	}
	return evs
}

func mustNew(t *testing.T, c Config) *Monitor {
	t.Helper()
	m, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func windows(evs []Event) []Window {
	var out []Window
	for _, e := range evs {
		if e.Window != nil {
			out = append(out, *e.Window)
		}
	}
	return out
}

func alerts(evs []Event) []Alert {
	var out []Alert
	for _, e := range evs {
		if e.Alert != nil {
			out = append(out, *e.Alert)
		}
	}
	return out
}

func seq(n int, f func(i int) float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func TestWindows(t *testing.T) {
	ramp := seq(10, func(i int) float64 { return float64(i) })
	tests := []struct {
		name   string
		cfg    Config
		step   time.Duration
		scores []float64
		want   [][2]int // first, last of each record
	}{
		{"tumbling", Config{WindowFrames: 4}, 0, ramp, [][2]int{{0, 3}, {4, 7}}},
		{"sliding", Config{WindowFrames: 4, WindowStep: 2}, 0, ramp, [][2]int{{0, 3}, {2, 5}, {4, 7}, {6, 9}}},
		{"hopping", Config{WindowFrames: 2, WindowStep: 5}, 0, ramp, [][2]int{{0, 1}, {5, 6}}},
		{"step 1", Config{WindowFrames: 9, WindowStep: 1}, 0, ramp, [][2]int{{0, 8}, {1, 9}}},
		{"fewer than a window", Config{WindowFrames: 11}, 0, ramp, nil},
		// 10 ms a frame, windows of 30 ms: [0,30) is emitted by the
		// sample at 30 ms, and so on; the last partial one is not.
		{"duration", Config{WindowDuration: 30 * time.Millisecond}, 10 * time.Millisecond, ramp, [][2]int{{0, 2}, {3, 5}, {6, 8}}},
		{"duration, no times", Config{WindowDuration: 30 * time.Millisecond}, 0, ramp, nil},
		{"off", Config{}, 10 * time.Millisecond, ramp, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := mustNew(t, tc.cfg)
			got := windows(feed(t, m, tc.scores, tc.step))
			m.Finish(NoTime)
			if len(got) != len(tc.want) {
				t.Fatalf("%d windows %v, want %d", len(got), got, len(tc.want))
			}
			for i, w := range got {
				if w.First != tc.want[i][0] || w.Last != tc.want[i][1] {
					t.Errorf("window %d covers %d..%d, want %v", i, w.First, w.Last, tc.want[i])
				}
				var xs []float64
				for j := w.First; j <= w.Last; j++ {
					xs = append(xs, tc.scores[j])
				}
				if w.Frames != len(xs) || w.Min != slices.Min(xs) || w.Max != slices.Max(xs) {
					t.Errorf("window %d: frames %d min %v max %v over %v", i, w.Frames, w.Min, w.Max, xs)
				}
				var sum, inv float64
				for _, x := range xs {
					sum += x
					inv += 1 / (x + 1)
				}
				if math.Abs(w.Mean-sum/float64(len(xs))) > 1e-12 || math.Abs(w.HarmonicMean-(float64(len(xs))/inv-1)) > 1e-12 {
					t.Errorf("window %d: mean %v harmonic %v over %v", i, w.Mean, w.HarmonicMean, xs)
				}
				if tc.step > 0 && (w.Start != time.Duration(w.First)*tc.step || w.End != time.Duration(w.Last)*tc.step) {
					t.Errorf("window %d spans %v..%v", i, w.Start, w.End)
				}
				if w.Model != "vmaf" {
					t.Errorf("window %d model %q", i, w.Model)
				}
			}
			if len(got) > 0 {
				if last, ok := m.LastWindow(); !ok || last.First != got[len(got)-1].First {
					t.Errorf("LastWindow = %v, %v", last, ok)
				}
			}
		})
	}
}

// TestDurationGapAndSegment: an idle gap emits no empty window, and a
// running time going back starts a new window.
func TestDurationGapAndSegment(t *testing.T) {
	m := mustNew(t, Config{WindowDuration: time.Second})
	var got []Window
	m.Subscribe(func(e Event) { got = append(got, *e.Window) })
	add := func(i int, rt time.Duration) { m.Add(Sample{Index: i, RunningTime: rt, Score: 50}) }
	add(0, 0)
	add(1, 500*time.Millisecond)
	add(2, 5500*time.Millisecond) // emits [0,1s); next window is [5s,6s)
	add(3, 100*time.Millisecond)  // new segment: [5s,6s) abandoned
	add(4, 1200*time.Millisecond) // emits [0.1s,1.1s) = frame 3
	add(5, NoTime)                // ignored
	add(6, 2300*time.Millisecond) // emits frame 4
	want := [][2]int{{0, 1}, {3, 3}, {4, 4}}
	if len(got) != len(want) {
		t.Fatalf("windows %+v", got)
	}
	for i, w := range got {
		if w.First != want[i][0] || w.Last != want[i][1] {
			t.Errorf("window %d = %d..%d, want %v", i, w.First, w.Last, want[i])
		}
	}
}

func TestWindowPercentiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	scores := seq(500, func(int) float64 { return 60 + 40*rng.Float64() })
	pcts := []float64{0, 1, 5, 10, 50, 99, 100}
	m := mustNew(t, Config{WindowFrames: 100, WindowStep: 37, Percentiles: pcts})
	ws := windows(feed(t, m, scores, 0))
	if len(ws) == 0 {
		t.Fatal("no window")
	}
	for _, w := range ws {
		xs := slices.Clone(scores[w.First : w.Last+1])
		slices.Sort(xs)
		for i, p := range w.Percentiles {
			k := int(math.Ceil(pcts[i] / 100 * float64(len(xs))))
			want := xs[max(k, 1)-1]
			if p.P != pcts[i] || p.Value != want {
				t.Errorf("window %d..%d p%v = %v, want %v", w.First, w.Last, pcts[i], p.Value, want)
			}
		}
	}
}

func TestPercentileOf(t *testing.T) {
	xs := seq(30, func(i int) float64 { return float64(i + 1) }) // 1..30
	for _, tc := range []struct{ p, want float64 }{
		{0, 1}, {10, 3}, {50, 15}, {51, 16}, {99, 30}, {100, 30}, {3.4, 2},
	} {
		if got := PercentileOf(xs, tc.p); got != tc.want {
			t.Errorf("p%v = %v, want %v", tc.p, got, tc.want)
		}
	}
	if !math.IsNaN(PercentileOf(nil, 50)) {
		t.Error("empty: want NaN")
	}
}

// TestHistogramExact: the histogram's percentiles equal the exact
// nearest-rank percentiles rounded to 0.001.
func TestHistogramExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 7, 100, 1000, 12345} {
		var h Histogram
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = 100 * rng.Float64()
			if i%97 == 5 {
				xs[i] = math.Round(xs[i]) // ties on bin boundaries
			}
			h.Add(xs[i])
		}
		slices.Sort(xs)
		if h.Count() != n {
			t.Fatalf("count %d, want %d", h.Count(), n)
		}
		for p := 0.0; p <= 100; p += 0.5 {
			exact := PercentileOf(xs, p)
			got := h.Percentile(p)
			if math.Abs(got-math.Round(exact*1000)/1000) > 1e-9 || math.Abs(got-exact) > 0.0005+1e-9 {
				t.Fatalf("n=%d p%v: histogram %v, exact %v", n, p, got, exact)
			}
		}
	}
	var h Histogram
	if !math.IsNaN(h.Percentile(50)) {
		t.Error("empty histogram: want NaN")
	}
	for _, x := range []float64{-3, 104, math.NaN()} {
		h.Add(x)
	}
	if h.Count() != 2 || h.Percentile(0) != 0 || h.Percentile(100) != 100 {
		t.Errorf("ends: count %d, p0 %v, p100 %v", h.Count(), h.Percentile(0), h.Percentile(100))
	}
}

func TestPooledPercentilesPerModel(t *testing.T) {
	m := mustNew(t, Config{Percentiles: []float64{50}})
	for i := range 10 {
		model := "vmaf"
		if i >= 6 {
			model = "vmaf_neg"
		}
		m.Add(Sample{Index: i, RunningTime: NoTime, Model: model, Score: float64(10 * i)})
	}
	got := m.Percentiles()
	if len(got) != 2 || got["vmaf"][0].Value != 20 || got["vmaf_neg"][0].Value != 70 {
		t.Errorf("percentiles %v", got)
	}
	if mustNew(t, Config{}).Percentiles() != nil {
		t.Error("no percentiles configured: want nil")
	}
}

func TestAlerts(t *testing.T) {
	tests := []struct {
		name   string
		frames int
		scores []float64
		want   []Alert // ID, State, First, Last, Frames, Min, AtEOS checked
	}{
		{"single frame drops", 1, []float64{90, 70, 90, 60, 65, 90},
			[]Alert{{ID: 1, First: 1, Last: 1, Frames: 1, Min: 70}, {ID: 1, State: AlertEnd, First: 1, Last: 1, Frames: 1, Min: 70},
				{ID: 2, First: 3, Last: 3, Frames: 1, Min: 60}, {ID: 2, State: AlertEnd, First: 3, Last: 4, Frames: 2, Min: 60}}},
		{"too short", 3, []float64{90, 70, 70, 90, 70, 90}, nil},
		{"three make a drop", 3, []float64{90, 70, 60, 75, 74, 90},
			[]Alert{{ID: 1, First: 1, Last: 3, Frames: 3, Min: 60}, {ID: 1, State: AlertEnd, First: 1, Last: 4, Frames: 4, Min: 60}}},
		{"at threshold is not low", 1, []float64{80, 80}, nil},
		{"open at EOS", 2, []float64{90, 10, 20, 30},
			[]Alert{{ID: 1, First: 1, Last: 2, Frames: 2, Min: 10}, {ID: 1, State: AlertEnd, First: 1, Last: 3, Frames: 3, Min: 10, AtEOS: true}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := mustNew(t, Config{AlertThreshold: 80, AlertFrames: tc.frames})
			var evs []Event
			m.Subscribe(func(e Event) { evs = append(evs, e) })
			feed(t, m, tc.scores, time.Millisecond)
			m.Finish(time.Hour)
			m.Finish(2 * time.Hour) // idempotent
			got := alerts(evs)
			if len(got) != len(tc.want) {
				t.Fatalf("alerts %+v, want %+v", got, tc.want)
			}
			for i, a := range got {
				w := tc.want[i]
				if a.ID != w.ID || a.State != w.State || a.First != w.First || a.Last != w.Last || a.Frames != w.Frames || a.Min != w.Min || a.AtEOS != w.AtEOS {
					t.Errorf("alert %d = %+v, want %+v", i, a, w)
				}
				var sum float64
				for j := a.First; j <= a.Last; j++ {
					sum += tc.scores[j]
				}
				if math.Abs(a.Mean-sum/float64(a.Frames)) > 1e-12 || a.Threshold != 80 || a.Model != "vmaf" {
					t.Errorf("alert %d: mean %v threshold %v model %q", i, a.Mean, a.Threshold, a.Model)
				}
				if a.Start != time.Duration(a.First)*time.Millisecond {
					t.Errorf("alert %d starts at %v", i, a.Start)
				}
				if end := time.Duration(a.Last) * time.Millisecond; a.AtEOS && a.End != time.Hour || !a.AtEOS && a.End != end {
					t.Errorf("alert %d ends at %v", i, a.End)
				}
			}
			if _, open := m.ActiveAlert(); open {
				t.Error("a drop is still open after Finish")
			}
			if n := len(m.Alerts(0)); n != len(tc.want)/2 {
				t.Errorf("Alerts kept %d, want %d", n, len(tc.want)/2)
			}
		})
	}
}

func TestAlertsKeepTheLatest(t *testing.T) {
	m := mustNew(t, Config{AlertThreshold: 50})
	scores := seq(2*(maxAlerts+10), func(i int) float64 { return float64(i%2) * 100 })
	feed(t, m, scores, 0)
	all := m.Alerts(0)
	if len(all) != maxAlerts || all[0].ID != 11 || all[len(all)-1].ID != maxAlerts+10 {
		t.Fatalf("kept %d alerts, %d..%d", len(all), all[0].ID, all[len(all)-1].ID)
	}
	if got := m.Alerts(3); len(got) != 3 || got[2].ID != maxAlerts+10 {
		t.Errorf("Alerts(3) = %+v", got)
	}
	m.Add(Sample{Index: 1 << 20, Score: 1})
	if a, ok := m.ActiveAlert(); !ok || a.State != AlertBegin || a.First != 1<<20 {
		t.Errorf("active %+v %v", a, ok)
	}
	if got := m.Alerts(1); got[0].ID != maxAlerts+11 {
		t.Errorf("the open drop is not the newest: %+v", got)
	}
}

func TestHistory(t *testing.T) {
	m := mustNew(t, Config{HistoryFrames: 5000})
	// Every third index is missing (not scored); the model changes at 3000.
	idx := 0
	for range 6000 {
		if idx%3 == 2 {
			idx++
		}
		model := "a"
		if idx >= 3000 {
			model = "b"
		}
		// The label changes alone at 4500, as when a model is swapped for
		// another pooled under the same key.
		label := "label-" + model
		if idx >= 4500 {
			label = "label-c"
		}
		m.Add(Sample{Index: idx, RunningTime: time.Duration(idx), Model: model, Label: label, Score: float64(idx%1000) / 10})
		idx++
	}
	last := idx - 1
	got, have := m.History(0, 1<<30)
	if len(got) != 5000 || have[1] != last || got[len(got)-1].Index != last || have[0] != got[0].Index {
		t.Fatalf("kept %d, have %v, last %d", len(got), have, got[len(got)-1].Index)
	}
	for _, tc := range []struct{ from, to, n int }{
		{have[0], have[0], 1}, {0, have[0] - 1, 0}, {have[1] + 1, have[1] + 100, 0}, {3000, 3008, 6}, {4490, 4510, 14}, {5, 4, 0},
	} {
		out, _ := m.History(tc.from, tc.to)
		if len(out) != tc.n {
			t.Errorf("History(%d, %d): %d samples, want %d", tc.from, tc.to, len(out), tc.n)
		}
		for _, s := range out {
			wantModel := "a"
			if s.Index >= 3000 {
				wantModel = "b"
			}
			wantLabel := "label-" + wantModel
			if s.Index >= 4500 {
				wantLabel = "label-c"
			}
			if s.Index < tc.from || s.Index > tc.to || s.Index%3 == 2 || s.Model != wantModel || s.Label != wantLabel || s.RunningTime != NoTime ||
				math.Abs(s.Score-float64(s.Index%1000)/10) > 1e-4 {
				t.Errorf("History(%d, %d): %+v", tc.from, tc.to, s)
			}
		}
	}
	if _, have := mustNew(t, Config{}).History(0, 10); have != [2]int{-1, -1} {
		t.Errorf("empty history has %v", have)
	}
}

func TestHealth(t *testing.T) {
	high := seq(40, func(int) float64 { return 95 })
	tests := []struct {
		name   string
		cfg    Config
		scores []float64
		finish bool
		want   Verdict
		reason string
	}{
		{"no data", Config{AlertThreshold: 80}, nil, false, NoData, "No frame"},
		{"alerts off", Config{}, []float64{10, 20}, false, Healthy, "No alert threshold"},
		{"healthy", Config{AlertThreshold: 80}, high, false, Healthy, "none of"},
		{"open drop", Config{AlertThreshold: 80, AlertFrames: 2}, append(slices.Clone(high), 50, 40), false, Critical, "drop is open"},
		{"one low frame, no drop", Config{AlertThreshold: 80, AlertFrames: 2}, append(slices.Clone(high), 50, 95), false, Warning, "below"},
		{"drop ended recently", Config{AlertThreshold: 80}, append(slices.Clone(high), 50, 95), false, Warning, "ended within"},
		{"drop ended long ago", Config{AlertThreshold: 80}, append([]float64{50}, high...), false, Healthy, "none of"},
		{"near threshold", Config{AlertThreshold: 92}, high, false, Warning, "within 5"},
		{"drop closed at EOS", Config{AlertThreshold: 80}, append(slices.Clone(high), 50), true, Warning, "ended within"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := mustNew(t, tc.cfg)
			feed(t, m, tc.scores, 0)
			if tc.finish {
				m.Finish(NoTime)
			}
			h := m.Health()
			if h.Verdict != tc.want || !strings.Contains(strings.Join(h.Reasons, " "), tc.reason) {
				t.Fatalf("verdict %s %q, want %s with %q", h.Verdict, h.Reasons, tc.want, tc.reason)
			}
			if h.Threshold != tc.cfg.AlertThreshold {
				t.Errorf("threshold %v", h.Threshold)
			}
			if len(tc.scores) == 0 {
				return
			}
			n := min(len(tc.scores), 30)
			if h.Current == nil || h.Current.Frames != n || h.Current.Last != len(tc.scores)-1 {
				t.Fatalf("current %+v", h.Current)
			}
			recent := tc.scores[len(tc.scores)-n:]
			if len(h.Worst) != min(5, n) || h.Worst[0].Score != slices.Min(recent) {
				t.Errorf("worst %+v over %v", h.Worst, recent)
			}
			if (h.Verdict == Critical) != (h.Active != nil) {
				t.Errorf("active %+v with verdict %s", h.Active, h.Verdict)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{WindowFrames: 10, WindowDuration: time.Second}, "window-frames and window-duration are exclusive"},
		{Config{WindowFrames: -1}, "window-frames -1 is negative"},
		{Config{WindowDuration: -time.Second}, "window-duration -1s is negative"},
		{Config{WindowStep: 2}, "window-step 2 needs window-frames"},
		{Config{WindowFrames: 4, WindowStep: -2}, "window-step -2 is negative"},
		{Config{Percentiles: []float64{5, 150}}, "percentile 150 is out of [0,100]"},
		{Config{Percentiles: []float64{math.NaN()}}, "percentile NaN is out of [0,100]"},
		{Config{AlertThreshold: math.NaN()}, "alert-threshold NaN is out of [0,100]"},
		{Config{AlertThreshold: -1}, "alert-threshold -1 is out of [0,100]"},
		{Config{AlertThreshold: 80, AlertFrames: -1}, "alert-frames -1 is negative"},
		{Config{HistoryFrames: -1}, "history-frames -1 is negative"},
		{Config{WindowFrames: 30, WindowStep: 10, Percentiles: []float64{0, 100}, AlertThreshold: 80, AlertFrames: 3}, ""},
		{Config{}, ""},
	}
	for _, tc := range tests {
		err := tc.cfg.Validate()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Validate(%+v) = %v, want %q", tc.cfg, err, tc.want)
		}
		if _, nerr := New(tc.cfg); (nerr == nil) != (err == nil) {
			t.Errorf("New and Validate disagree on %+v", tc.cfg)
		}
	}
}

func TestParsePercentiles(t *testing.T) {
	tests := []struct {
		in   string
		want []float64
		err  string
	}{
		{"", nil, ""},
		{"  ", nil, ""},
		{"1,5,10,50", []float64{1, 5, 10, 50}, ""},
		{" 50 , 1,5 ,1, 99.9", []float64{1, 5, 50, 99.9}, ""},
		{"1,,5", nil, "empty entry"},
		{"1,x", nil, `percentile "x" is not a number`},
		{"150", nil, "percentile 150 is out of [0,100]"},
		{"-1", nil, "out of [0,100]"},
	}
	for _, tc := range tests {
		got, err := ParsePercentiles(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParsePercentiles(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParsePercentiles(%q) = %v, %v, want %v", tc.in, got, err, tc.want)
		}
	}
}

// TestConcurrentReaders runs the readers beside Add (go test -race).
func TestConcurrentReaders(t *testing.T) {
	m := mustNew(t, Config{WindowFrames: 10, Percentiles: []float64{5}, AlertThreshold: 50, HistoryFrames: 100})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 200 {
			m.Health()
			m.History(0, 1000)
			m.Alerts(5)
			m.Percentiles()
			m.LastWindow()
		}
	}()
	for i := range 2000 {
		m.Add(Sample{Index: i, Score: float64(i % 100), Model: "vmaf"})
	}
	<-done
	if m.Scored() != 2000 || m.HistoryLen() != 100 {
		t.Errorf("scored %d, history %d", m.Scored(), m.HistoryLen())
	}
}

// BenchmarkAdd measures Add with everything on: windows of 60 frames every
// 30 with four percentiles, pooled percentiles, alerts, history.
func BenchmarkAdd(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  Config
	}{
		{"off", Config{}},
		{"all", Config{WindowFrames: 60, WindowStep: 30, Percentiles: []float64{1, 5, 10, 50}, AlertThreshold: 80, AlertFrames: 3}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			m := mustNewB(b, bc.cfg)
			m.Subscribe(func(Event) {})
			rng := rand.New(rand.NewPCG(5, 6))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				m.Add(Sample{Index: i, RunningTime: time.Duration(i) * time.Second / 60, Model: "vmaf", Score: 70 + 30*rng.Float64()})
				i++
			}
		})
	}
}

func mustNewB(b *testing.B, c Config) *Monitor {
	m, err := New(c)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkHistoryHour adds an hour of scores at 60 fps and reports the
// heap the history holds.
func BenchmarkHistoryHour(b *testing.B) {
	const frames = 3600 * 60
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m := mustNewB(b, Config{})
		for i := range frames {
			m.Add(Sample{Index: i, Model: "vmaf", Score: 90})
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/1e6, "MB/hour@60fps")
		runtime.KeepAlive(m)
	}
}
