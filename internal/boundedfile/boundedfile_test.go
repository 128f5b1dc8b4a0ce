package boundedfile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, bytes.Repeat([]byte("x"), n), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	const limit = 64
	for _, tc := range []struct {
		name, path string
		want       int    // bytes read, when no error
		is         error  // what the error wraps
		msg        string // what the error says
	}{
		{name: "ok", path: write("ok", 10), want: 10},
		{name: "empty", path: write("empty", 0), want: 0},
		{name: "at the limit", path: write("full", limit), want: limit},
		{name: "too large", path: write("big", limit+1), is: ErrTooLarge, msg: "big is 65 bytes, larger than 64 bytes"},
		// Opened blocking, a FIFO without a writer would hang here until
		// the test binary's timeout.
		{name: "FIFO", path: fifo, is: ErrNotRegular, msg: "fifo is not a regular file (a named pipe)"},
		{name: "directory", path: dir, is: ErrNotRegular, msg: "is not a regular file (a directory)"},
		{name: "device", path: "/dev/zero", is: ErrNotRegular, msg: "/dev/zero is not a regular file (a character device)"},
		{name: "missing", path: filepath.Join(dir, "missing"), is: fs.ErrNotExist, msg: "open " + filepath.Join(dir, "missing") + ": no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := Read(tc.path, limit)
			if tc.is == nil {
				if err != nil || len(data) != tc.want {
					t.Fatalf("Read: %d bytes, %v; want %d bytes", len(data), err, tc.want)
				}
				return
			}
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("Read: %v; want an error wrapping %q saying %q", err, tc.is, tc.msg)
			}
			if data != nil {
				t.Errorf("Read returned %d bytes with its error", len(data))
			}
		})
	}
}

// TestReadAllGrown: a file that grows past the bound between Open's check
// and the read is refused, not read past it.
func TestReadAllGrown(t *testing.T) {
	p := filepath.Join(t.TempDir(), "grows")
	if err := os.WriteFile(p, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, fi, err := Open(p, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if fi.Size() != 10 {
		t.Fatalf("Open's FileInfo: %d bytes, want 10", fi.Size())
	}
	if err := os.WriteFile(p, []byte("0123456789ab"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := ReadAll(f, 10)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "grows grew while being read, larger than 10 bytes") {
		t.Fatalf("ReadAll: %d bytes, %v; want it refused as grown", len(data), err)
	}
}
