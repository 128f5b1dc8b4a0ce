package pipelines

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// The clip the Prometheus tests play: a moving texture, the distorted
// copy identical (VMAF 100) but for a strong noise over metricsDrop,
// which scores far below metricsThreshold.
const (
	metricsW, metricsH = 160, 120
	metricsFrames      = 200
	metricsThreshold   = 70
)

var metricsDrop = [2]int{50, 125}

// TestElementMetricsPrometheus runs vmafsink with metrics-addr,
// alert-threshold, windows and the control plane under a real Prometheus
// server (Debian's prometheus package) scraping it every second, and asks
// Prometheus's own query API what it saw: every frame counted, the alert
// raised during the drop and clear outside it, the histogram complete.
//
// The clip comes through FIFOs the test writes in three steps (before,
// during and after the drop). After each step it holds the inputs open
// until Prometheus has scraped the step's state (all its frames scored
// but the last, which waits for its successor's motion), so that a scrape
// inside and outside the drop is a state reached, not a matter of timing.
// A third branch, fed by a FIFO of its own, keeps the pipeline (and
// /metrics) up after vmafsink's end of stream until Prometheus has the
// final count.
func TestElementMetricsPrometheus(t *testing.T) {
	if _, err := exec.LookPath("gst-launch-1.0"); err != nil {
		t.Skip("gst-launch-1.0 is not installed")
	}
	prom := prometheusBinary(t)
	addr := freeAddr(t)
	api := startPrometheus(t, prom, addr)

	refRaw, distRaw := metricsClip(t)
	dir := t.TempDir()
	feeds := metricsStepFeeds(t, dir, "yuv", nil, "", refRaw, distRaw)
	// One byte lets the keeper branch's fakesink preroll.
	keeper := newStepFeed(t, filepath.Join(dir, "keeper"), []byte{0}, nil)
	raw := func(path string) string {
		return fmt.Sprintf("filesrc location=%s blocksize=%d ! rawvideoparse width=%d height=%d format=i420 framerate=25/1",
			path, metricsW*metricsH*3/2, metricsW, metricsH)
	}
	p := gsttest.Start(t, fmt.Sprintf("%s ! v.ref_sink %s ! v.dist_sink "+
		"filesrc location=%s blocksize=1 ! fakesink "+
		"vmafsink name=v frame-message=false metrics-addr=%s alert-threshold=%d window-frames=25 mcp-uds=%s",
		raw(feeds[0].path), raw(feeds[1].path), keeper.path, addr, metricsThreshold, filepath.Join(dir, "mcp.sock")))
	stopped := p.Exited()
	// A feed fails when gst-launch has gone: its output then says why.
	failed := func(format string, args ...any) {
		t.Helper()
		select {
		case <-stopped:
		case <-time.After(time.Minute):
		}
		t.Fatalf(format+"\ngst-launch (%v):\n%s", append(args, p.ExitErr(), p.Output())...)
	}

	scoredNow := `vmaf_frames_scored_total{element="v"}`
	alertNow := `vmaf_alert_active{element="v"}`
	for _, step := range []struct {
		upto  int
		alert float64
	}{{metricsDrop[0], 0}, {metricsDrop[1], 1}, {metricsFrames, 0}} {
		if err := feedTo(step.upto, feeds[0], feeds[1]); err != nil {
			failed("%v", err)
		}
		if _, err := promUntil(t, api, scoredNow, equals(float64(step.upto-1)), stopped); err != nil {
			t.Fatalf("frames 0 to %d fed: %v\n%s", step.upto-1, err, p.Output())
		}
		// The state is held: the scrape that saw the count saw its alert.
		if v, found := promQuery(t, api, alertNow); !found || v != step.alert {
			t.Errorf("frames 0 to %d fed and scored: %s = %v (found %v), want %v", step.upto-1, alertNow, v, found, step.alert)
		}
	}
	feeds[0].end()
	feeds[1].end()
	if _, err := promUntil(t, api, scoredNow, equals(metricsFrames), stopped); err != nil {
		t.Fatalf("inputs ended: %v\n%s", err, p.Output())
	}
	for _, c := range []struct {
		query string
		ok    func(float64) bool
		want  string
	}{
		{`max_over_time(vmaf_alert_active{element="v"}[10m])`, equals(1), "1: scraped during the drop"},
		{`min_over_time(vmaf_alert_active{element="v"}[10m])`, equals(0), "0: scraped outside the drop"},
		{`max_over_time(vmaf_alerts_total{element="v"}[10m])`, equals(1), "1 drop"},
		{`max_over_time(vmaf_alert_threshold{element="v"}[10m])`, equals(metricsThreshold), "the threshold"},
		{`max_over_time(vmaf_score_count{element="v",model="vmaf"}[10m])`, equals(metricsFrames), "every frame"},
		{`max_over_time(vmaf_score_bucket{element="v",model="vmaf",le="100"}[10m])`, equals(metricsFrames), "every frame"},
		{`min_over_time(vmaf_last_score{element="v",model="vmaf"}[10m])`, func(v float64) bool { return v < metricsThreshold }, "below the threshold"},
		{`max_over_time(vmaf_last_score{element="v",model="vmaf"}[10m])`, func(v float64) bool { return v > 99 }, "above 99"},
	} {
		if v, found := promQuery(t, api, c.query); !found || !c.ok(v) {
			t.Errorf("%s = %v (found %v), want %s", c.query, v, found, c.want)
		}
	}
	checkDashboardQueries(t, api, stopped)
	keeper.end()
	select {
	case <-stopped:
		if err := p.ExitErr(); err != nil {
			t.Errorf("gst-launch: %v\n%s", err, p.Output())
		}
	case <-time.After(time.Minute):
		t.Errorf("gst-launch still running a minute after its inputs ended:\n%s", p.Output())
	}
}

// checkDashboardQueries runs every query of the example Grafana dashboard
// through Prometheus, as Grafana would with element "v": each must be
// valid PromQL for the server and return data from the run. The rates
// need two scrapes within their interval: each query is polled while the
// scraped process is up (until stopped is closed).
func checkDashboardQueries(t *testing.T, api string, stopped <-chan struct{}) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(gsttest.RepoRoot(t), "examples", "grafana", "vmafsink-dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	grafana := strings.NewReplacer("$element", "v", "$__rate_interval", "5s", "$__range", "10m")
	deadline := time.Now().Add(2 * time.Minute)
	for _, p := range d.Panels {
		for _, q := range p.Targets {
			// Over the whole run, not only now: the series go stale
			// once the pipeline has ended.
			expr := fmt.Sprintf("max_over_time((%s)[10m:1s])", grafana.Replace(q.Expr))
			for promSeries(t, api, expr) == 0 {
				if time.Now().After(deadline) {
					t.Errorf("panel %q: no data for %s after two minutes", p.Title, expr)
					break
				}
				select {
				case <-stopped:
					t.Errorf("panel %q: no data for %s when the pipeline ended", p.Title, expr)
					return
				case <-time.After(200 * time.Millisecond):
				}
			}
		}
	}
}

func equals(want float64) func(float64) bool { return func(v float64) bool { return v == want } }

// TestElementMetricsPortInUse: a metrics-addr whose port is taken fails
// the start with an element error naming the property and the address,
// as mcp-http does.
func TestElementMetricsPortInUse(t *testing.T) {
	if _, err := exec.LookPath("gst-launch-1.0"); err != nil {
		t.Skip("gst-launch-1.0 is not installed")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	for _, c := range []struct{ addr, want string }{
		{addr, "address already in use"},
		{"127.0.0.1", "want HOST:PORT"},
	} {
		run := gsttest.Launch(t, time.Minute, fmt.Sprintf("%s vmafsink name=v metrics-addr=%s", liveSources, c.addr))
		if run.Err == nil || !strings.Contains(run.Output, "metrics-addr") || !strings.Contains(run.Output, c.want) {
			t.Errorf("metrics-addr=%s: %v\n%s", c.addr, run.Err, run.Output)
		}
	}
}

// TestPrometheusExampleConfig: promtool (from the same package) accepts
// the example scrape configuration.
func TestPrometheusExampleConfig(t *testing.T) {
	prometheusBinary(t)
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("prometheus is installed without promtool")
	}
	cfg := filepath.Join(gsttest.RepoRoot(t), "examples", "prometheus", "prometheus.yml")
	if out, err := exec.Command(promtool, "check", "config", cfg).CombinedOutput(); err != nil {
		t.Errorf("promtool check config %s: %v\n%s", cfg, err, out)
	}
}

// prometheusBinary finds Debian's prometheus. scripts/deps.sh installs
// it, so under the project's test command (meson sets VMAFSINK_BUILD_DIR)
// or in CI its absence is a failure; a bare go test skips.
func prometheusBinary(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("prometheus")
	if err != nil {
		if os.Getenv("CI") != "" || os.Getenv("VMAFSINK_BUILD_DIR") != "" {
			t.Fatal("prometheus is not installed (scripts/deps.sh installs Debian's prometheus package)")
		}
		t.Skip("prometheus is not installed (apt-get install prometheus, or scripts/deps.sh)")
	}
	return p
}

// freeAddr returns a loopback address whose port was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startPrometheus runs a Prometheus server scraping target every second,
// its storage and config in a temporary directory, and returns its base
// URL once it has tried the target once.
func startPrometheus(t *testing.T, bin, target string) string {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: vmafsink
    static_configs:
      - targets: ['%s']
`, target)), 0o644); err != nil {
		t.Fatal(err)
	}
	web := freeAddr(t)
	cmd := exec.Command(bin, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+web, "--log.level=warn")
	log, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		log.Close()
	})
	base := "http://" + web
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(base + "/-/ready"); err == nil {
			resp.Body.Close()
			// Ready is not yet scraping: Prometheus hands the targets to
			// its scrapers some 5 s after the start. Once up has a sample
			// (0: nothing listens yet), the scrapes run every second.
			if resp.StatusCode == http.StatusOK && promSeries(t, base, `up{job="vmafsink"}`) == 1 {
				return base
			}
		}
		select {
		case err := <-done:
			out, _ := os.ReadFile(log.Name())
			t.Fatalf("prometheus ended at start (%v):\n%s", err, out)
		default:
		}
		if time.Now().After(deadline) {
			out, _ := os.ReadFile(log.Name())
			t.Fatalf("prometheus not ready after 30 s:\n%s", out)
		}
	}
}

// promResult is the answer to an instant query of Prometheus's HTTP API.
type promResult struct {
	Status string `json:"status"`
	Error  string `json:"error"`
	Data   struct {
		ResultType string `json:"resultType"`
		Result     []struct {
			Metric map[string]string `json:"metric"`
			Value  [2]any            `json:"value"`
		} `json:"result"`
	} `json:"data"`
}

// promAsk evaluates an instant query, failing the test on an error.
func promAsk(t *testing.T, base, query string) promResult {
	t.Helper()
	resp, err := http.Get(base + "/api/v1/query?query=" + url.QueryEscape(query))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r promResult
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatalf("query %s: %v", query, err)
	}
	if r.Status != "success" {
		t.Fatalf("query %s: %s", query, r.Error)
	}
	return r
}

// promSeries returns how many series an instant query returns.
func promSeries(t *testing.T, base, query string) int {
	t.Helper()
	return len(promAsk(t, base, query).Data.Result)
}

// promQuery evaluates an instant query through Prometheus's HTTP API and
// returns the value of its one sample (ok false when the result is empty).
func promQuery(t *testing.T, base, query string) (float64, bool) {
	t.Helper()
	r := promAsk(t, base, query)
	switch len(r.Data.Result) {
	case 0:
		return 0, false
	case 1:
	default:
		t.Fatalf("query %s: %d series, want one: %v", query, len(r.Data.Result), r.Data.Result)
	}
	s, _ := r.Data.Result[0].Value[1].(string)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("query %s: value %v: %v", query, r.Data.Result[0].Value, err)
	}
	return v, true
}

// metricsClip writes the test's reference and distorted clips as raw I420.
func metricsClip(t *testing.T) (ref, dist string) {
	t.Helper()
	dir := t.TempDir()
	ref, dist = filepath.Join(dir, "ref.yuv"), filepath.Join(dir, "dist.yuv")
	rng := rand.New(rand.NewPCG(3, 4))
	luma := metricsW * metricsH
	var r, d []byte
	for i := range metricsFrames {
		frame := make([]byte, luma*3/2)
		for y := range metricsH {
			for x := range metricsW {
				frame[y*metricsW+x] = byte((x*7 + y*13 + i*5) % 251)
			}
		}
		for j := luma; j < len(frame); j++ {
			frame[j] = 128
		}
		r = append(r, frame...)
		if i >= metricsDrop[0] && i < metricsDrop[1] {
			for j := range luma {
				frame[j] = byte(min(255, max(0, int(frame[j])+rng.IntN(161)-80)))
			}
		}
		d = append(d, frame...)
	}
	if err := os.WriteFile(ref, r, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dist, d, 0o644); err != nil {
		t.Fatal(err)
	}
	return ref, dist
}

// metricsStepFeeds makes the reference and distorted step feeds of the
// metrics clip in dir: raw I420 frames, each preceded by sep, after header.
func metricsStepFeeds(t *testing.T, dir, ext string, header []byte, sep, refRaw, distRaw string) [2]*stepFeed {
	t.Helper()
	frameBytes := metricsW * metricsH * 3 / 2
	var feeds [2]*stepFeed
	for i, raw := range []string{refRaw, distRaw} {
		data, err := os.ReadFile(raw)
		if err != nil {
			t.Fatal(err)
		}
		feeds[i] = newStepFeed(t, filepath.Join(dir, fmt.Sprintf("in%d.%s", i, ext)), header, splitFrames(data, frameBytes, sep))
	}
	return feeds
}
