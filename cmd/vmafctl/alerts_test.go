package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/control"
)

func newMonitor(cfg analytics.Config) *analytics.Monitor {
	m, err := analytics.New(cfg)
	if err != nil {
		panic(err) // a test's own configuration
	}
	return m
}

func (t *target) Analytics() *analytics.Monitor { return t.mon }

func (t *target) Range(from, to int64, limit int) []control.Record {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []control.Record
	for _, r := range t.records {
		if r.Frame >= from && r.Frame <= to && len(out) < limit {
			out = append(out, r)
		}
	}
	return out
}

// serveAlerts serves a target whose drops are 2 frames below 80.
func serveAlerts(t *testing.T) (*target, string) {
	t.Helper()
	tg := newTarget()
	tg.mon = newMonitor(analytics.Config{AlertThreshold: 80, AlertFrames: 2})
	path := t.TempDir() + "/vmaf.sock"
	s, err := control.Start(path, tg, control.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return tg, path
}

type result struct {
	code     int
	out, err string
}

func goVmafctl(t *testing.T, args ...string) <-chan result {
	done := make(chan result, 1)
	go func() {
		var o, e bytes.Buffer
		code := run(context.Background(), args, &o, &e)
		done <- result{code, o.String(), e.String()}
	}()
	return done
}

// armedWriter collects what is written to it and closes armed once the
// text holds waitingLine: wait-alert has subscribed, so every drop that
// begins from then on reaches it.
type armedWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	armed chan struct{}
}

const waitingLine = "vmafctl: waiting for a quality drop below"

func (w *armedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	was := strings.Contains(w.buf.String(), waitingLine)
	n, err := w.buf.Write(p)
	if !was && strings.Contains(w.buf.String(), waitingLine) {
		close(w.armed)
	}
	return n, err
}

func (w *armedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// goWaitAlert runs wait-alert and returns once it is armed (or has
// ended), with its result to come.
func goWaitAlert(t *testing.T, args ...string) <-chan result {
	t.Helper()
	e := &armedWriter{armed: make(chan struct{})}
	done := make(chan result, 1)
	ended := make(chan struct{})
	go func() {
		var o bytes.Buffer
		code := run(context.Background(), append(args, "wait-alert", "-timeout", "60s"), &o, e)
		close(ended)
		done <- result{code, o.String(), e.String()}
	}()
	select {
	case <-e.armed:
	case <-ended:
	}
	return done
}

func TestWaitAlert(t *testing.T) {
	t.Run("drop begins", func(t *testing.T) {
		tg, sock := serveAlerts(t)
		tg.frame(95)
		done := goWaitAlert(t, "-s", sock)
		for _, s := range []float64{50, 40, 95} {
			tg.frame(s)
		}
		r := <-done
		if r.code != exitOK || !strings.Contains(r.out, "drop 1 began at frame 1: 2 frames below 80.00 (min 40.000)") {
			t.Errorf("wait-alert = %d\n%s%s", r.code, r.out, r.err)
		}
	})
	t.Run("drop already open, json", func(t *testing.T) {
		tg, sock := serveAlerts(t)
		for _, s := range []float64{95, 50, 50} {
			tg.frame(s)
		}
		r := <-goVmafctl(t, "-s", sock, "-json", "wait-alert")
		if r.code != exitOK || !strings.Contains(r.out, `"state":"begin"`) || !strings.Contains(r.out, `"first_frame":1`) {
			t.Errorf("wait-alert = %d\n%s%s", r.code, r.out, r.err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		tg, sock := serveAlerts(t)
		tg.frame(95)
		r := <-goVmafctl(t, "-s", sock, "wait-alert", "-timeout", "300ms")
		if r.code != exitTimeout || !strings.Contains(r.err, "no quality drop within 300ms") {
			t.Errorf("wait-alert = %d\n%s%s", r.code, r.out, r.err)
		}
	})
	t.Run("stream ends", func(t *testing.T) {
		tg, sock := serveAlerts(t)
		tg.frame(95)
		done := goWaitAlert(t, "-s", sock)
		tg.mu.Lock()
		tg.finished = true
		tg.mu.Unlock()
		r := <-done
		if r.code != exitFinished || !strings.Contains(r.err, "ended without a quality drop") {
			t.Errorf("wait-alert = %d\n%s%s", r.code, r.out, r.err)
		}
	})
	t.Run("no threshold", func(t *testing.T) {
		_, sock := serve(t)
		r := <-goVmafctl(t, "-s", sock, "wait-alert")
		if r.code != exitRefused || !strings.Contains(r.err, "no alert threshold") {
			t.Errorf("wait-alert = %d\n%s%s", r.code, r.out, r.err)
		}
	})
}

func TestHealthCommand(t *testing.T) {
	tg, sock := serveAlerts(t)
	if code, out, _ := vmafctl(t, "-s", sock, "health"); code != exitOK || !strings.HasPrefix(out, "no_data\n") {
		t.Errorf("health before frames = %d %q", code, out)
	}
	for _, s := range []float64{95, 50, 40} {
		tg.frame(s)
	}
	code, out, _ := vmafctl(t, "-s", sock, "health")
	if code != exitOK || !strings.HasPrefix(out, "critical\n") || !strings.Contains(out, "open drop  drop 1 began at frame 1") || !strings.Contains(out, "worst      frame 2: 40.000") {
		t.Errorf("health = %d\n%s", code, out)
	}
	if code, out, _ := vmafctl(t, "-s", sock, "health", "-json"); code != exitOK || !strings.Contains(out, `"verdict": "critical"`) {
		t.Errorf("health -json = %d\n%s", code, out)
	}
}

// TestWatchMarksAlerts: a drop's begin and end are lines of their own, and
// the frames in between carry a marker.
func TestWatchMarksAlerts(t *testing.T) {
	var b bytes.Buffer
	p := newPrinter(&b, false, false)
	p.print(live{rec: control.Record{Frame: 0, Model: "vmaf", Score: 95}})
	p.alert(control.Alert{ID: 1, State: "begin", FirstFrame: 1, LastFrame: 1, Frames: 1, Min: 50, Threshold: 80})
	p.print(live{rec: control.Record{Frame: 1, Model: "vmaf", Score: 50}})
	p.alert(control.Alert{ID: 1, State: "end", FirstFrame: 1, LastFrame: 1, Frames: 1, Min: 50, Mean: 50, Threshold: 80})
	p.print(live{rec: control.Record{Frame: 2, Model: "vmaf", Score: 95}})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 5 || strings.Contains(lines[0], "[drop") || lines[1] != "! drop 1 began at frame 1: 1 frames below 80.00 (min 50.000)" ||
		!strings.HasSuffix(lines[2], "[drop 1 open]") || lines[3] != "! drop 1 ended: frames 1..1 (1 frames, min 50.000, mean 50.000)" || strings.Contains(lines[4], "[drop") {
		t.Errorf("watch output:\n%s", b.String())
	}
}

// relay passes a client's lines on to the control socket at target, each
// first shown to pass, which may hold it or return false to drop the
// connection instead: a server that goes, or answers slowly, on cue.
func relay(t *testing.T, target string, pass func(line []byte) bool) string {
	t.Helper()
	path := t.TempDir() + "/relay.sock"
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("unix", target)
			if err != nil {
				c.Close()
				continue
			}
			go func() { io.Copy(c, s); c.Close() }()
			go relayLines(c, s, pass)
		}
	}()
	return path
}

func relayLines(c, s net.Conn, pass func([]byte) bool) {
	defer s.Close()
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && !pass(line) {
			return
		}
		if _, werr := s.Write(line); werr != nil || err != nil {
			return
		}
	}
}

func TestWaitAlertServerGoesMidCall(t *testing.T) {
	// The relay drops the connection in place of passing on a vmaf_status
	// call once armed: the server went while that call was in flight, as
	// vmaf-score does when its stream ends.
	tg, sock := serveAlerts(t)
	tg.frame(95)
	var armed atomic.Bool
	cut := make(chan struct{})
	path := relay(t, sock, func(line []byte) bool {
		if armed.Load() && bytes.Contains(line, []byte(`"vmaf_status"`)) {
			close(cut)
			return false
		}
		return true
	})
	done := goWaitAlert(t, "-s", path)
	armed.Store(true)
	tg.mu.Lock()
	tg.finished = true
	tg.mu.Unlock()
	r := <-done
	select {
	case <-cut:
	default:
		t.Fatal("wait-alert ended before its status call was cut; the test did not reach its case")
	}
	if r.code != exitFinished || !strings.Contains(r.err, "closed the connection without a quality drop") {
		t.Errorf("wait-alert = %d\n%s%s", r.code, r.out, r.err)
	}
}

func TestWaitAlertTimeoutCountsFromTheWait(t *testing.T) {
	// The server takes at least four times the wait's timeout to answer
	// the first call (a lower bound: load only makes it longer). The
	// timeout is the wait's, so it still ends as a wait without a drop.
	tg, sock := serveAlerts(t)
	tg.frame(95)
	const wait = 50 * time.Millisecond
	path := relay(t, sock, func(line []byte) bool {
		if bytes.Contains(line, []byte(`"vmaf_health"`)) {
			time.Sleep(4 * wait)
		}
		return true
	})
	r := <-goVmafctl(t, "-s", path, "wait-alert", "-timeout", wait.String())
	if r.code != exitTimeout || !strings.Contains(r.err, "no quality drop within "+wait.String()) {
		t.Errorf("wait-alert = %d\n%s%s", r.code, r.out, r.err)
	}
}
