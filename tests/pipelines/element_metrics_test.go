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

// The clip the Prometheus test plays: a moving texture, the distorted
// copy identical (VMAF 100) but for a strong noise over metricsDrop,
// which scores far below metricsThreshold.
const (
	metricsW, metricsH = 160, 120
	metricsFrames      = 200 // 8 s at 25 fps
	metricsThreshold   = 70
)

var metricsDrop = [2]int{50, 125} // 3 s: several scrapes at 1 s

// TestElementMetricsPrometheus runs vmafsink with metrics-addr,
// alert-threshold, windows and the control plane under a real Prometheus server (Debian's prometheus
// package) scraping it every second, and asks Prometheus's own query API
// what it saw: every frame counted, the alert raised during the drop and
// clear outside it, the histogram complete.
func TestElementMetricsPrometheus(t *testing.T) {
	if _, err := exec.LookPath("gst-launch-1.0"); err != nil {
		t.Skip("gst-launch-1.0 is not installed")
	}
	prom := prometheusBinary(t)
	addr := freeAddr(t)
	api := startPrometheus(t, prom, addr)

	ref, dist := metricsClip(t)
	frameBytes := metricsW * metricsH * 3 / 2
	raw := func(path string) string {
		return fmt.Sprintf("filesrc location=%s blocksize=%d ! rawvideoparse width=%d height=%d format=i420 framerate=25/1",
			path, frameBytes, metricsW, metricsH)
	}
	// vmafsink sync=true plays the clip at its rate, so that the drop
	// spans scrapes; the third branch ends 4 s after the clip, keeping
	// the pipeline (and /metrics) up after vmafsink has counted its last
	// frame, for the scrapes that see the final count.
	p := gsttest.Start(t, fmt.Sprintf("%s ! v.ref_sink %s ! v.dist_sink "+
		"videotestsrc num-buffers=%d ! video/x-raw,width=16,height=16,framerate=25/1 ! fakesink sync=true "+
		"vmafsink name=v sync=true frame-message=false metrics-addr=%s alert-threshold=%d window-frames=25 mcp-uds=%s",
		raw(ref), raw(dist), metricsFrames+100, addr, metricsThreshold, filepath.Join(t.TempDir(), "mcp.sock")))

	scored := `max_over_time(vmaf_frames_scored_total{element="v"}[10m])`
	v, ok, exited, err := waitProm(t, api, scored, metricsFrames, p.Done())
	if exited && err != nil {
		t.Errorf("gst-launch: %v\n%s", err, p.Output())
	}
	if !ok {
		t.Fatalf("Prometheus has %v frames scored, want %d:\n%s", v, metricsFrames, p.Output())
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
	checkDashboardQueries(t, api)
	if exited {
		return
	}
	select {
	case err := <-p.Done():
		if err != nil {
			t.Errorf("gst-launch: %v\n%s", err, p.Output())
		}
	case <-time.After(time.Minute):
		t.Errorf("gst-launch still running a minute after the clip:\n%s", p.Output())
	}
}

// checkDashboardQueries runs every query of the example Grafana dashboard
// through Prometheus, as Grafana would with element "v": each must be
// valid PromQL for the server and return data from the run.
func checkDashboardQueries(t *testing.T, api string) {
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
	for _, p := range d.Panels {
		for _, q := range p.Targets {
			// Over the whole run, not only now: the series went stale
			// if the pipeline has ended.
			expr := fmt.Sprintf("max_over_time((%s)[10m:1s])", grafana.Replace(q.Expr))
			if n := promSeries(t, api, expr); n == 0 {
				t.Errorf("panel %q: no data for %s", p.Title, expr)
			}
		}
	}
}

func equals(want float64) func(float64) bool { return func(v float64) bool { return v == want } }

// waitProm polls query until it returns want, for at most 2 minutes or
// until a short while after done delivers the process's end (Prometheus
// keeps what it scraped); ended and err say whether it ended and how.
func waitProm(t *testing.T, api, query string, want float64, done <-chan error) (last float64, ok, ended bool, err error) {
	t.Helper()
	var endedAt time.Time
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		last, _ = promQuery(t, api, query)
		if last == want {
			return last, true, ended, err
		}
		if !ended {
			select {
			case err = <-done:
				ended, endedAt = true, time.Now()
			default:
			}
		} else if time.Since(endedAt) > 15*time.Second {
			break
		}
	}
	return last, false, ended, err
}

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
