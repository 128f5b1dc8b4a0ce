package pipelines

import (
	"bufio"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCLIMetricsPrometheus runs vmaf-score --metrics-addr on two FIFOs
// (the clip of TestElementMetricsPrometheus, a drop in the middle) under
// a real Prometheus scraping every second. The test writes the clip in
// three steps (before, during and after the drop) and after each holds
// the FIFOs open until Prometheus has scraped the step's state: all its
// frames scored but the last, which waits for its successor's motion
// until the inputs end. Each scrape must show the alert of its step.
// Then the inputs end and vmaf-score exits 0, having stopped serving.
func TestCLIMetricsPrometheus(t *testing.T) {
	prom := prometheusBinary(t)
	bin, _ := ffSetup(t)
	addr := freeAddr(t)
	api := startPrometheus(t, prom, addr)

	dir := t.TempDir()
	refRaw, distRaw := metricsClip(t)
	header := []byte(fmt.Sprintf("YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n", metricsW, metricsH))
	feeds := metricsStepFeeds(t, dir, "y4m", header, "FRAME\n", refRaw, distRaw)
	cmd := exec.Command(bin, "-r", feeds[0].path, "-d", feeds[1].path, "-q", "--json", "-o", filepath.Join(dir, "out.json"),
		"--metrics-addr", addr, "--alert-threshold", fmt.Sprint(metricsThreshold))
	var stderr lockedText
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan struct{})
	var exitErr error
	served := make(chan struct{})
	go func() {
		re := regexp.MustCompile(`Prometheus metrics on http://` + regexp.QuoteMeta(addr) + `/metrics`)
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			stderr.add(sc.Text() + "\n")
			if re.MatchString(sc.Text()) {
				close(served)
			}
		}
		exitErr = cmd.Wait()
		close(stopped)
	}()
	t.Cleanup(func() { cmd.Process.Kill() })

	scoredNow := `vmaf_frames_scored_total{element="vmaf-score"}`
	alertNow := `vmaf_alert_active{element="vmaf-score"}`
	for _, step := range []struct {
		upto  int
		alert float64
	}{{metricsDrop[0], 0}, {metricsDrop[1], 1}, {metricsFrames, 0}} {
		if err := feedTo(step.upto, feeds[0], feeds[1]); err != nil {
			t.Fatalf("feeding vmaf-score: %v\n%s", err, stderr.String())
		}
		if _, err := promUntil(t, api, scoredNow, equals(float64(step.upto-1)), stopped); err != nil {
			t.Fatalf("frames 0 to %d fed: %v\n%s", step.upto-1, err, stderr.String())
		}
		if v, found := promQuery(t, api, alertNow); !found || v != step.alert {
			t.Errorf("frames 0 to %d fed and scored: %s = %v (found %v), want %v", step.upto-1, alertNow, v, found, step.alert)
		}
	}
	select {
	case <-served:
	case <-time.After(time.Minute):
		t.Errorf("vmaf-score served metrics without saying where:\n%s", stderr.String())
	}
	for _, c := range []struct {
		query string
		want  float64
	}{
		{`max_over_time(vmaf_alert_active{element="vmaf-score"}[10m])`, 1},
		{`min_over_time(vmaf_alert_active{element="vmaf-score"}[10m])`, 0},
		{`max_over_time(vmaf_alerts_total{element="vmaf-score"}[10m])`, 1},
		{`max_over_time(vmaf_score_count{element="vmaf-score",model="vmaf"}[10m])`, metricsFrames - 1},
	} {
		if v, found := promQuery(t, api, c.query); !found || v != c.want {
			t.Errorf("%s = %v (found %v), want %v", c.query, v, found, c.want)
		}
	}
	feeds[0].end()
	feeds[1].end()
	select {
	case <-stopped:
		if exitErr != nil {
			t.Fatalf("vmaf-score: %v\n%s", exitErr, stderr.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("vmaf-score still running a minute after its inputs ended:\n%s", stderr.String())
	}
}

// lockedText collects a process's output while the test reads it.
type lockedText struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedText) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(s)
}

func (l *lockedText) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
