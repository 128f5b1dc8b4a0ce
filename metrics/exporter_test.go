package metrics

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/vmaf"
)

const testW, testH = 96, 64

// frame makes one synthetic pair: a random texture shifted by i and a
// copy of it with noise of the given amplitude.
func frame(t testing.TB, i, noise int) (ref, dist *vmaf.Picture) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, uint64(i)))
	r, err := vmaf.NewPicture(testW, testH, 8, vmaf.Chroma420)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := vmaf.NewPicture(testW, testH, 8, vmaf.Chroma420)
	for y := range testH {
		for x := range testW {
			v := byte((x*7 + y*13 + i*5) % 251)
			r.Planes[0][y*r.Strides[0]+x] = v
			d.Planes[0][y*d.Strides[0]+x] = byte(min(255, max(0, int(v)+rng.IntN(2*noise+1)-noise)))
		}
	}
	for p := 1; p < 3; p++ {
		for j := range r.Planes[p] {
			r.Planes[p][j], d.Planes[p][j] = 128, 128
		}
	}
	return r, d
}

func newRunner(t *testing.T) *pipeline.Runner { return newRunnerWith(t, analytics.Config{}) }

func newRunnerWith(t *testing.T, live analytics.Config) *pipeline.Runner {
	t.Helper()
	m, err := vmaf.BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		t.Fatal(err)
	}
	r, err := pipeline.New(pipeline.Config{
		Scorer:    vmaf.Config{Models: []*vmaf.Model{m}, Engine: "native", Threads: 1},
		Pairing:   pipeline.PairByOrder,
		Analytics: live,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

func push(t *testing.T, r *pipeline.Runner, i, noise int) {
	t.Helper()
	ref, dist := frame(t, i, noise)
	if err := r.Push(pipeline.Ref, pipeline.Frame{Picture: ref, Timing: pipeline.Untimed}); err != nil {
		t.Fatal(err)
	}
	if err := r.Push(pipeline.Dist, pipeline.Frame{Picture: dist, Timing: pipeline.Untimed}); err != nil {
		t.Fatal(err)
	}
}

func newExporter(t *testing.T, cfg Config) *Exporter {
	t.Helper()
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// family returns the gathered family name, failing when it is absent.
func family(t *testing.T, g prometheus.Gatherer, name string) *dto.MetricFamily {
	t.Helper()
	fams, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() == name {
			return f
		}
	}
	t.Fatalf("no %s in the exposition", name)
	return nil
}

func labels(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.GetLabel() {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

func TestExposition(t *testing.T) {
	r := newRunner(t)
	e := newExporter(t, Config{Element: "vmafsink0", Runner: r, Clients: func() int { return 2 }})
	const n = 6
	for i := range n {
		push(t, r, i, 6)
	}
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	g := e.Gatherer()
	want := `
# HELP vmaf_frames_scored_total Frame pairs scored (published).
# TYPE vmaf_frames_scored_total counter
vmaf_frames_scored_total{element="vmafsink0"} 6
# HELP vmaf_frames_skipped_total Frame pairs not scored because scoring was paused (pause-mode=skip).
# TYPE vmaf_frames_skipped_total counter
vmaf_frames_skipped_total{element="vmafsink0"} 0
# HELP vmaf_frames_dropped_total Frame pairs not scored because the scorer was saturated (backpressure=drop).
# TYPE vmaf_frames_dropped_total counter
vmaf_frames_dropped_total{element="vmafsink0"} 0
# HELP vmaf_frames_unpaired_total Frames released without a partner from the other stream, by side (reference, distorted).
# TYPE vmaf_frames_unpaired_total counter
vmaf_frames_unpaired_total{element="vmafsink0",side="distorted"} 0
vmaf_frames_unpaired_total{element="vmafsink0",side="reference"} 0
# HELP vmaf_model_swaps_total Model swaps that took effect.
# TYPE vmaf_model_swaps_total counter
vmaf_model_swaps_total{element="vmafsink0"} 0
# HELP vmaf_paused 1 while scoring is paused, else 0.
# TYPE vmaf_paused gauge
vmaf_paused{element="vmafsink0"} 0
# HELP vmaf_control_clients Clients connected to the MCP control plane.
# TYPE vmaf_control_clients gauge
vmaf_control_clients{element="vmafsink0"} 2
`
	if err := testutil.GatherAndCompare(g, strings.NewReader(want),
		"vmaf_frames_scored_total", "vmaf_frames_skipped_total", "vmaf_frames_dropped_total",
		"vmaf_frames_unpaired_total", "vmaf_model_swaps_total", "vmaf_paused", "vmaf_control_clients"); err != nil {
		t.Error(err)
	}

	last := r.Recent(1)[0].Score
	lf := family(t, g, "vmaf_last_score")
	if len(lf.Metric) != 1 || lf.Metric[0].GetGauge().GetValue() != last {
		t.Errorf("vmaf_last_score = %v, want one series at %v", lf.Metric, last)
	}
	if l := labels(lf.Metric[0]); l["model"] != "vmaf" || l["element"] != "vmafsink0" {
		t.Errorf("vmaf_last_score labels %v, want model=vmaf element=vmafsink0", l)
	}

	var sum float64
	for _, rec := range r.Recent(n) {
		sum += rec.Score
	}
	h := family(t, g, "vmaf_score").Metric[0].GetHistogram()
	if h.GetSampleCount() != n || math.Abs(h.GetSampleSum()-sum) > 1e-9 {
		t.Errorf("vmaf_score count %d sum %v, want %d and %v", h.GetSampleCount(), h.GetSampleSum(), n, sum)
	}
	if len(h.GetBucket()) != len(ScoreBuckets) {
		t.Errorf("vmaf_score has %d buckets, want %d", len(h.GetBucket()), len(ScoreBuckets))
	}
	if fps := family(t, g, "vmaf_scoring_fps").Metric[0].GetGauge().GetValue(); fps <= 0 {
		t.Errorf("vmaf_scoring_fps = %v right after %d frames, want > 0", fps, n)
	}
	// The process's collectors are there, without the element label.
	if gr := family(t, g, "go_goroutines").Metric[0]; len(gr.GetLabel()) != 0 {
		t.Errorf("go_goroutines has labels %v", labels(gr))
	}
	family(t, g, "process_cpu_seconds_total")

	problems, err := testutil.GatherAndLint(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		if strings.HasPrefix(p.Metric, "vmaf_") {
			t.Errorf("lint: %s: %s", p.Metric, p.Text)
		}
	}
}

func TestNoClientsSource(t *testing.T) {
	e := newExporter(t, Config{Element: "e", Runner: newRunner(t)})
	if n, err := testutil.GatherAndCount(e.Gatherer(), "vmaf_control_clients", "vmaf_last_score",
		"vmaf_window_score", "vmaf_alert_active", "vmaf_alerts_total", "vmaf_alert_threshold"); err != nil || n != 0 {
		t.Errorf("without a clients source, windows or alerts, before a frame: %d series (%v), want none", n, err)
	}
}

// waitScored waits until the Runner's monitor has seen n records.
func waitScored(t *testing.T, r *pipeline.Runner, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for r.Analytics().Scored() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d records published after a minute, want %d", r.Analytics().Scored(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestAnalyticsMetrics(t *testing.T) {
	// Noise 4 scores about 100 on these frames, noise 80 about 56.
	r := newRunnerWith(t, analytics.Config{WindowFrames: 2, AlertThreshold: 70, AlertFrames: 2})
	e := newExporter(t, Config{Element: "e", Runner: r})
	const alertMetrics = `
# HELP vmaf_alert_active 1 while a quality drop is open (alert-frames or more consecutive frames below alert-threshold), else 0.
# TYPE vmaf_alert_active gauge
vmaf_alert_active{element="e"} %d
# HELP vmaf_alert_threshold The alert threshold (VMAF score) the drops are measured against.
# TYPE vmaf_alert_threshold gauge
vmaf_alert_threshold{element="e"} 70
# HELP vmaf_alerts_total Quality drops begun, including the open one.
# TYPE vmaf_alerts_total counter
vmaf_alerts_total{element="e"} %d
`
	check := func(active, begun int) {
		t.Helper()
		if err := testutil.GatherAndCompare(e.Gatherer(), strings.NewReader(fmt.Sprintf(alertMetrics, active, begun)),
			"vmaf_alert_active", "vmaf_alerts_total", "vmaf_alert_threshold"); err != nil {
			t.Error(err)
		}
	}
	check(0, 0)
	// The Runner scores a pair once the next one is in (motion looks one
	// frame ahead), so 6 pushes publish 5 records.
	for i, noise := range []int{4, 4, 80, 80, 80, 80} {
		push(t, r, i, noise)
	}
	waitScored(t, r, 5)
	check(1, 1)
	w, ok := r.Analytics().LastWindow()
	if !ok {
		t.Fatal("no window after 5 frames of 2-frame windows")
	}
	wf := family(t, e.Gatherer(), "vmaf_window_score")
	if len(wf.Metric) != 1 || wf.Metric[0].GetGauge().GetValue() != w.Mean || labels(wf.Metric[0])["model"] != "vmaf" {
		t.Errorf("vmaf_window_score %v, want one series for model vmaf at %v", wf.Metric, w.Mean)
	}
	push(t, r, 6, 4)
	push(t, r, 7, 4)
	waitScored(t, r, 7)
	check(0, 1)
}

func TestPauseAndSwap(t *testing.T) {
	r := newRunner(t)
	e := newExporter(t, Config{Element: "e", Runner: r})
	push(t, r, 0, 6)
	if _, err := r.Pause(); err != nil {
		t.Fatal(err)
	}
	push(t, r, 1, 6) // the pause takes effect at this boundary: skipped
	// The run reads as paused once the pair scored before the pause is
	// published, which the Runner does on its own goroutine.
	waitScored(t, r, 1)
	if got := testutil.ToFloat64(gauge(e, descPaused)); got != 1 {
		t.Errorf("vmaf_paused = %v while paused, want 1", got)
	}
	if _, err := r.Resume(); err != nil {
		t.Fatal(err)
	}
	neg, err := vmaf.BuiltinModel("vmaf_v0.6.1neg")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.RequestSwap(neg); err != nil {
		t.Fatal(err)
	}
	push(t, r, 2, 6)
	push(t, r, 3, 6)
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	want := `
# HELP vmaf_frames_skipped_total Frame pairs not scored because scoring was paused (pause-mode=skip).
# TYPE vmaf_frames_skipped_total counter
vmaf_frames_skipped_total{element="e"} 1
# HELP vmaf_model_swaps_total Model swaps that took effect.
# TYPE vmaf_model_swaps_total counter
vmaf_model_swaps_total{element="e"} 1
# HELP vmaf_paused 1 while scoring is paused, else 0.
# TYPE vmaf_paused gauge
vmaf_paused{element="e"} 0
`
	if err := testutil.GatherAndCompare(e.Gatherer(), strings.NewReader(want),
		"vmaf_frames_skipped_total", "vmaf_model_swaps_total", "vmaf_paused"); err != nil {
		t.Error(err)
	}
	// Each model has its histogram, under its results-file key; the last
	// score carries the current model only.
	counts := map[string]uint64{}
	for _, m := range family(t, e.Gatherer(), "vmaf_score").Metric {
		counts[labels(m)["model"]] = m.GetHistogram().GetSampleCount()
	}
	if len(counts) != 2 || counts["vmaf"] != 1 || counts["vmaf_v0.6.1neg"] != 2 {
		t.Errorf("vmaf_score counts by model %v, want vmaf:1 vmaf_v0.6.1neg:2", counts)
	}
	lf := family(t, e.Gatherer(), "vmaf_last_score")
	if len(lf.Metric) != 1 || labels(lf.Metric[0])["model"] != "vmaf_v0.6.1neg" {
		t.Errorf("vmaf_last_score %v, want one series for vmaf_v0.6.1neg", lf.Metric)
	}
}

// gauge collects the one metric of desc from e's runner collector.
func gauge(e *Exporter, desc *prometheus.Desc) prometheus.Collector {
	return prometheus.CollectorFunc(func(ch chan<- prometheus.Metric) {
		all := make(chan prometheus.Metric, 64)
		(&runnerCollector{r: e.runner, scores: e.scores, rate: e.rate}).Collect(all)
		close(all)
		for m := range all {
			if m.Desc() == desc {
				ch <- m
			}
		}
	})
}

func TestModelLabelsBounded(t *testing.T) {
	s := newScores()
	for i := range maxModels + 5 {
		m := &vmaf.Model{Name: "vmaf", Version: "v" + string(rune('a'+i))}
		s.observe(&pipeline.Record{Index: i, Models: []*vmaf.Model{m}, Score: 90})
	}
	if n := testutil.CollectAndCount(s.hist); n != maxModels+1 {
		t.Errorf("%d model series after %d models, want %d (the rest under %q)", n, maxModels+5, maxModels+1, otherModel)
	}
	if got := testutil.ToFloat64(prometheus.CollectorFunc(func(ch chan<- prometheus.Metric) {
		score, model, _ := s.lastScore()
		if model == otherModel {
			ch <- prometheus.MustNewConstMetric(descLast, prometheus.GaugeValue, score, model)
		}
	})); got != 90 {
		t.Errorf("last score under %q = %v, want 90", otherModel, got)
	}
}

func TestNonFiniteScoreIgnored(t *testing.T) {
	s := newScores()
	m := &vmaf.Model{Name: "vmaf"}
	for _, x := range []float64{math.NaN(), math.Inf(1), 80} {
		s.observe(&pipeline.Record{Models: []*vmaf.Model{m}, Score: x})
	}
	if score, _, ok := s.lastScore(); !ok || score != 80 {
		t.Errorf("last score %v %v, want 80", score, ok)
	}
}

func TestRate(t *testing.T) {
	t0 := time.Unix(1000, 0)
	tests := []struct {
		name    string
		samples []uint64 // one a second from t0
		now     time.Duration
		scored  uint64
		want    float64
	}{
		{"one sample", []uint64{0}, 2 * time.Second, 60, 30},
		{"ring not full", []uint64{0, 30, 60}, 3 * time.Second, 90, 30},
		// The ring keeps the last 6: samples at 4..9 s; now at 10 s.
		{"ring wrapped", []uint64{0, 0, 0, 0, 0, 50, 100, 150, 200, 250}, 10 * time.Second, 300, 50},
		{"stopped", []uint64{100, 100, 100}, 3 * time.Second, 100, 0},
		{"no time", []uint64{5}, 0, 5, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r rate
			for i, n := range tc.samples {
				r.sample(t0.Add(time.Duration(i)*time.Second), n)
			}
			if got := r.fps(t0.Add(tc.now), tc.scored); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("fps = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestServe(t *testing.T) {
	r := newRunner(t)
	e, err := Start(Config{Addr: "127.0.0.1:0", Element: "vmaf-score", Runner: r})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	push(t, r, 0, 6)
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	body := get(t, "http://"+e.Addr()+"/metrics", http.StatusOK)
	for _, want := range []string{
		`vmaf_frames_scored_total{element="vmaf-score"} 1`,
		`vmaf_score_bucket{element="vmaf-score",model="vmaf",le="100"} 1`,
		"# TYPE go_goroutines gauge",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	get(t, "http://"+e.Addr()+"/", http.StatusNotFound)

	addr := e.Addr()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections after Close", addr)
	}
	// The element's next run binds the same address again.
	again, err := Start(Config{Addr: addr, Element: "vmaf-score", Runner: r})
	if err != nil {
		t.Fatalf("a second exporter on %s after Close: %v", addr, err)
	}
	again.Close()
}

func get(t *testing.T, url string, status int) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != status {
		t.Fatalf("GET %s: %s, want %d", url, resp.Status, status)
	}
	return string(b)
}

// Two exporters in one process (two elements) each have their registry.
func TestTwoExporters(t *testing.T) {
	r1, r2 := newRunner(t), newRunner(t)
	a, err := Start(Config{Addr: "127.0.0.1:0", Element: "a", Runner: r1})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Start(Config{Addr: "127.0.0.1:0", Element: "b", Runner: r2})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	push(t, r1, 0, 6)
	r1.Finish()
	if body := get(t, "http://"+b.Addr()+"/metrics", http.StatusOK); !strings.Contains(body, `vmaf_frames_scored_total{element="b"} 0`) {
		t.Errorf("b's exposition lacks its own zero count:\n%s", body)
	}
	if body := get(t, "http://"+a.Addr()+"/metrics", http.StatusOK); !strings.Contains(body, `vmaf_frames_scored_total{element="a"} 1`) {
		t.Errorf("a's exposition lacks its count")
	}
}

func TestPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, err = Start(Config{Addr: ln.Addr().String(), Element: "e", Runner: newRunner(t)})
	if !errors.Is(err, syscall.EADDRINUSE) {
		t.Fatalf("Start on a port in use: %v, want EADDRINUSE", err)
	}
	if !strings.Contains(err.Error(), ln.Addr().String()) {
		t.Errorf("error %q does not name the address", err)
	}
}

func TestBadConfig(t *testing.T) {
	r := newRunner(t)
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no address", Config{Element: "e", Runner: r}, "no listen address"},
		{"no port", Config{Addr: "127.0.0.1", Element: "e", Runner: r}, "want HOST:PORT"},
		{"port only", Config{Addr: "9464", Element: "e", Runner: r}, "want HOST:PORT"},
		{"named port", Config{Addr: "127.0.0.1:http", Element: "e", Runner: r}, `port "http" is not a number`},
		{"port too big", Config{Addr: "127.0.0.1:70000", Element: "e", Runner: r}, "not a number from 0 to 65535"},
		{"no runner", Config{Addr: "127.0.0.1:0", Element: "e"}, "nil runner"},
		{"no element", Config{Addr: "127.0.0.1:0", Runner: r}, "empty element name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Start(tc.cfg)
			if err == nil {
				e.Close()
				t.Fatal("Start succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

// An element name that is no label value (not UTF-8) is an error, not a
// panic, and leaves nothing running.
func TestBadElementName(t *testing.T) {
	if _, err := New(Config{Element: "bad\xff", Runner: newRunner(t)}); err == nil || !strings.Contains(err.Error(), `element "bad\xff"`) {
		t.Errorf("New with a name that is not UTF-8: %v", err)
	}
}
