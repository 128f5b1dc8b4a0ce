package control

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFaultSharedSocketDir: a socket in a directory others may write
// without the sticky bit was accepted silently, and another user could
// replace it with an impostor. It is refused, naming the directory and
// the override, unless the override is given; sticky and private
// directories are fine.
func TestFaultSharedSocketDir(t *testing.T) {
	for _, tc := range []struct {
		mode     os.FileMode
		override bool
		says     string
	}{
		{0o777, false, "writable by others without the sticky bit"},
		{0o770, false, "writable by its group without the sticky bit"},
		{0o777, true, ""},
		{0o777 | os.ModeSticky, false, ""},
		{0o700, false, ""},
		{0o755, false, ""},
	} {
		dir := filepath.Join(t.TempDir(), "d")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, tc.mode); err != nil {
			t.Fatal(err)
		}
		s, err := Start(filepath.Join(dir, "vmaf.sock"), newFake(), Options{AllowSharedSocketDir: tc.override})
		if err == nil {
			s.Close()
		}
		switch {
		case tc.says == "" && err != nil:
			t.Errorf("mode %v, override %v: %v", tc.mode, tc.override, err)
		case tc.says != "" && (err == nil || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), sharedSocketDirEnv)):
			t.Errorf("mode %v: %v, want an error saying %q", tc.mode, err, tc.says)
		}
	}
}

// TestFaultTokenFiles: a token file of mode 0666 or of 3 characters was
// taken silently, and /dev/zero ran the process out of memory at start.
// Each is refused with its reason; a FIFO does not hang the start.
func TestFaultTokenFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := strings.Repeat("k", minTokenBytes)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, says string
	}{
		{"world-readable", write("world", good, 0o644), "other users can read or change it"},
		{"mode 0666", write("open", good, 0o666), "other users can read or change it"},
		{"group-writable", write("gw", good, 0o660), "its group can change it"},
		{"3 characters", write("short", "abc\n", 0o600), "has 3 characters; use at least 16"},
		{"too long", write("long", strings.Repeat("k", maxTokenBytes+1), 0o600), "is 4097 bytes, larger than 4096 bytes"},
		{"/dev/zero", "/dev/zero", "is not a regular file"},
		{"a FIFO", fifo, "is not a regular file"},
		{"a directory", dir, "is not a regular file"},
		{"mode 0640", write("group", good+"\n", 0o640), ""},
		{"mode 0600", write("own", good, 0o600), ""},
	} {
		done := make(chan error, 1)
		go func() {
			s, err := Start("", newFake(), Options{HTTPAddr: "127.0.0.1:0", HTTPTokenFile: tc.path})
			if err == nil {
				s.Close()
			}
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%s: the start hung", tc.name)
		}
		if tc.says == "" && err != nil || tc.says != "" && (err == nil || !strings.Contains(err.Error(), tc.says)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.says)
		}
	}
}

// TestFaultHTTPBypassesReadOnly: with a read-only group and HTTP, nothing
// said that HTTP gives every local user (or every holder of the token)
// full access.
func TestFaultHTTPBypassesReadOnly(t *testing.T) {
	tok := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tok, []byte(strings.Repeat("t", 20)), 0o600)
	for _, tc := range []struct {
		opts Options
		says string
	}{
		{Options{ReadOnlyGID: 4242}, "any local user, members of the read-only group included, gets full access"},
		{Options{ReadOnlyGID: 4242, HTTPTokenFile: tok}, "full access to whoever holds the token"},
		{Options{}, ""},
	} {
		var log bytes.Buffer
		tc.opts.HTTPAddr = "127.0.0.1:0"
		tc.opts.Logger = slog.New(slog.NewTextHandler(&log, nil))
		s, err := Start("", newFake(), tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if tc.says != "" && !strings.Contains(log.String(), tc.says) || tc.says == "" && strings.Contains(log.String(), "full access") {
			t.Errorf("options %+v: log %q", tc.opts, log.String())
		}
	}
}
