package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// y4mFIFO serves the 8-bit 4:2:0 Y4M file at path through a FIFO: its
// header and first frames at once, the rest once gate closes, so that a
// test can act while the reader waits for a frame instead of racing it.
func y4mFIFO(t *testing.T, path string, first int, gate <-chan struct{}) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		t.Fatalf("%s: no Y4M header", path)
	}
	w, h := 0, 0
	for _, f := range strings.Fields(string(data[:nl])) {
		switch {
		case f[0] == 'W':
			w, _ = strconv.Atoi(f[1:])
		case f[0] == 'H':
			h, _ = strconv.Atoi(f[1:])
		case f[0] == 'C' && !strings.HasPrefix(f, "C420"):
			t.Fatalf("%s: colour space %s, want 4:2:0", path, f)
		}
	}
	// Where frame `first` starts: each frame is a FRAME line and its planes.
	at := nl + 1
	for range first {
		eol := bytes.IndexByte(data[at:], '\n')
		if eol < 0 || !bytes.HasPrefix(data[at:], []byte("FRAME")) {
			t.Fatalf("%s: fewer than %d frames", path, first)
		}
		at += eol + 1 + w*h*3/2
	}
	fifo := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { <-done })
	go func() {
		defer close(done)
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		if _, err := f.Write(data[:at]); err != nil {
			t.Error(err)
			return
		}
		<-gate
		if _, err := f.Write(data[at:]); err != nil {
			t.Error(err)
		}
	}()
	return fifo
}
