package pipelines

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestCLIMetricsPrometheus runs vmaf-score --metrics-addr on two FIFOs
// the test feeds at 25 fps (the clip of TestElementMetricsPrometheus, a
// drop in the middle), under a real Prometheus scraping every second.
// Once every frame is written the test holds the FIFOs open: the last
// frame waits for its successor's motion until the inputs end, so
// Prometheus must see all frames but that one scored, and the drop.
// Then the inputs end and vmaf-score exits 0, having stopped serving.
func TestCLIMetricsPrometheus(t *testing.T) {
	prom := prometheusBinary(t)
	bin, _ := ffSetup(t)
	addr := freeAddr(t)
	api := startPrometheus(t, prom, addr)

	dir := t.TempDir()
	refRaw, distRaw := metricsClip(t)
	fifos := [2]string{filepath.Join(dir, "ref.y4m"), filepath.Join(dir, "dist.y4m")}
	for _, p := range fifos {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "-r", fifos[0], "-d", fifos[1], "-q", "--json", "-o", filepath.Join(dir, "out.json"),
		"--metrics-addr", addr, "--alert-threshold", fmt.Sprint(metricsThreshold))
	var stderr lockedText
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
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
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() { cmd.Process.Kill() })

	// One writer a FIFO: each blocks until vmaf-score reads, in its order.
	release := make(chan struct{})
	written := make(chan error, 2)
	frameBytes := metricsW * metricsH * 3 / 2
	for i, raw := range []string{refRaw, distRaw} {
		data, err := os.ReadFile(raw)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			f, err := os.OpenFile(fifos[i], os.O_WRONLY, 0)
			if err != nil {
				written <- err
				return
			}
			defer f.Close()
			if _, err := fmt.Fprintf(f, "YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n", metricsW, metricsH); err != nil {
				written <- err
				return
			}
			tick := time.NewTicker(time.Second / 25)
			defer tick.Stop()
			for off := 0; off < len(data); off += frameBytes {
				<-tick.C
				if _, err := f.Write(append([]byte("FRAME\n"), data[off:off+frameBytes]...)); err != nil {
					written <- err
					return
				}
			}
			written <- nil
			<-release // holds the input open: no end of stream yet
		}()
	}
	for range 2 {
		if err := <-written; err != nil {
			t.Fatalf("feeding vmaf-score: %v\n%s", err, stderr.String())
		}
	}
	select {
	case <-served:
	case <-time.After(10 * time.Second):
		t.Fatalf("vmaf-score did not say where it serves:\n%s", stderr.String())
	}

	scored := `max_over_time(vmaf_frames_scored_total{element="vmaf-score"}[10m])`
	v, ok, ended, err := waitProm(t, api, scored, metricsFrames-1, exited)
	if ended {
		t.Fatalf("vmaf-score ended (%v) while its inputs were open, Prometheus at %v frames:\n%s", err, v, stderr.String())
	}
	if !ok {
		t.Fatalf("Prometheus has %v frames scored, want %d:\n%s", v, metricsFrames-1, stderr.String())
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
	close(release)
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("vmaf-score: %v\n%s", err, stderr.String())
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
