package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/vmafsink/vmafsink/control"
)

// A watch line never takes a terminal's last column, so a line redrawn
// in place stays one line, whatever the terminal's width: the sparkline
// narrows first, then the rest is cut.
func TestWatchFitsWidth(t *testing.T) {
	for _, cols := range []int{40, 80, 100, 200} {
		var b bytes.Buffer
		p := newPrinter(&b, false, true)
		p.width = func() int { return cols }
		p.dropped = 12345
		p.open = &control.Alert{ID: 3}
		for i := range 60 {
			p.print(live{rec: control.Record{Frame: int64(100000 + i), Model: "vmaf_4k_v0.6.1neg", Score: 90 + float64(i%7)}})
		}
		for _, line := range strings.Split(b.String(), "\r\033[K") {
			if n := utf8.RuneCountInString(line); n > cols-1 {
				t.Errorf("%d columns: a line of %d: %q", cols, n, line)
			}
		}
		last := b.String()[strings.LastIndex(b.String(), "\r\033[K")+4:]
		if !strings.Contains(last, "frame 100059") || !strings.Contains(last, "93.000") {
			t.Errorf("%d columns: %q lacks the frame or score", cols, last)
		}
		if cols >= 100 && (!strings.Contains(last, "mean") || !strings.Contains(last, "(12345 dropped)") || !strings.Contains(last, "[drop 3 open]")) {
			t.Errorf("%d columns: %q lacks the mean, drops or alert", cols, last)
		}
		if cols == 200 && !strings.Contains(last, "[90.00–96.00]") {
			t.Errorf("%d columns: no sparkline range in %q", cols, last)
		}
	}
}

// Swaps, pauses, resumes and the end of the stream are lines of their
// own, above the frame line.
func TestWatchEvents(t *testing.T) {
	var b bytes.Buffer
	p := newPrinter(&b, false, false)
	p.print(live{rec: control.Record{Frame: 0, Model: "vmaf", Score: 90}})
	p.print(live{rec: control.Record{Frame: 1, Model: "vmaf_neg", Score: 88}})
	p.stateSeen(control.Status{State: control.StateRunning})
	p.stateSeen(control.Status{State: control.StatePaused, PauseMode: "skip", LastFrame: 1})
	p.stateSeen(control.Status{State: control.StateRunning})
	if !p.stateSeen(control.Status{State: control.StateFinished, FramesScored: 2}) {
		t.Error("finished not reported as the end")
	}
	for _, want := range []string{"~ frame 1: model vmaf → vmaf_neg", "‖ paused after frame 1 (skip mode; 0 skipped so far)", "▶ resumed", "■ stream ended: 2 frames scored"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in:\n%s", want, b.String())
		}
	}
}

// syncBuffer is a bytes.Buffer safe to read while a command writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A stream that ends (the server closing after the frames) ends watch
// with status 0: the normal end of a measurement is not an error.
func TestWatchEndOfStream(t *testing.T) {
	tg, sock := serve(t)
	var out, errb syncBuffer
	done := make(chan int)
	go func() { done <- run(context.Background(), []string{"-s", sock, "watch"}, &out, &errb) }()
	for !strings.Contains(out.String(), "frame") {
		select {
		case code := <-done:
			t.Fatalf("watch ended early: %d %s", code, errb.String())
		case <-time.After(20 * time.Millisecond):
			tg.frame(60) // until the watcher has subscribed and printed one
		}
	}
	tg.mu.Lock()
	tg.finished = true
	tg.mu.Unlock()
	closeServer(t, sock)
	if code := <-done; code != exitOK {
		t.Errorf("exit %d at the end of the stream; stderr %q", code, errb.String())
	}
	if !strings.Contains(out.String(), "■ stream ended") {
		t.Errorf("output %q does not say the stream ended", out.String())
	}
}

// servers are the servers serve started, by socket path.
var servers sync.Map

func closeServer(t *testing.T, sock string) {
	t.Helper()
	s, ok := servers.Load(sock)
	if !ok {
		t.Fatalf("no server on %s", sock)
	}
	s.(interface{ Close() error }).Close()
}

// Help is there for every command, as "help CMD" and "CMD -h", on stdout
// with status 0 and without a socket.
func TestCommandHelp(t *testing.T) {
	for name := range commands {
		for _, args := range [][]string{{"help", name}, {name, "-h"}, {name, "--help"}} {
			code, out, e := vmafctl(t, args...)
			if code != exitOK || !strings.Contains(out, "usage: vmafctl [-s SOCKET] [-json] [-timeout D] "+name) || !strings.Contains(out, "exit codes:") {
				t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, e)
			}
		}
	}
	if code, out, _ := vmafctl(t, "help"); code != exitOK || !strings.Contains(out, "commands:") {
		t.Errorf("help: exit %d, %q", code, out)
	}
	if code, _, e := vmafctl(t, "help", "nosuch"); code != exitUsage || !strings.Contains(e, `unknown command "nosuch"`) {
		t.Errorf("help nosuch: exit %d, %q", code, e)
	}
}
