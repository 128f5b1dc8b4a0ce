package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/control/attach"
)

// TestControlLogAndReadOnly: --mcp-readonly-gid reaches the control
// plane, and --control-log gives it a logger writing to the file (or
// stderr with -), closed with the plane.
func TestControlLogAndReadOnly(t *testing.T) {
	var got attach.Config
	closed := false
	withControl(t, func(cfg attach.Config) (io.Closer, error) {
		got = cfg
		if cfg.Options.Logger != nil {
			cfg.Options.Logger.Info("control command", "tool", "vmaf_pause", "pid", 42)
		}
		return nopCloser{&closed}, nil
	})

	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	log := filepath.Join(t.TempDir(), "control.log")
	sock := filepath.Join(t.TempDir(), "s")
	res := vmafScore(t, "-r", ref, "-d", dist, "--mcp-uds", sock, "--mcp-readonly-gid", "4246", "--control-log", log)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if got.Options.ReadOnlyGID != 4246 || got.Options.Logger == nil || !closed {
		t.Errorf("control plane got read-only gid %d, logger %v; closed %v", got.Options.ReadOnlyGID, got.Options.Logger != nil, closed)
	}
	data, err := os.ReadFile(log)
	if err != nil || !strings.Contains(string(data), "msg=\"control command\" tool=vmaf_pause pid=42") {
		t.Errorf("control log %q (%v)", data, err)
	}
	if fi, err := os.Stat(log); err == nil && fi.Mode().Perm() != 0o600 {
		t.Errorf("control log mode %v, want 0600", fi.Mode().Perm())
	}

	res = vmafScore(t, "-r", ref, "-d", dist, "--mcp-uds", sock, "--control-log", "-")
	if res.code != 0 || !strings.Contains(res.stderr, "tool=vmaf_pause pid=42") {
		t.Errorf("--control-log -: exit %d, stderr %q", res.code, res.stderr)
	}
	res = vmafScore(t, "-r", ref, "-d", dist, "--mcp-uds", sock)
	if res.code != 0 || got.Options.Logger != nil {
		t.Errorf("without --control-log: exit %d, logger %v", res.code, got.Options.Logger)
	}
}

func TestControlFlagErrors(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--mcp-readonly-gid", "0", "--mcp-uds", "s"}, "--mcp-readonly-gid"},
		{[]string{"--mcp-readonly-gid", "x", "--mcp-uds", "s"}, "--mcp-readonly-gid"},
		{[]string{"--mcp-readonly-gid", "4246", "--mcp-http", "127.0.0.1:0"}, "--mcp-readonly-gid needs --mcp-uds"},
		{[]string{"--control-log", "-"}, "--control-log needs --mcp-uds or --mcp-http"},
		{[]string{"--control-log", "/no/such/dir/log", "--mcp-uds", filepath.Join(t.TempDir(), "s")}, "--control-log: open /no/such/dir/log"},
	} {
		res := vmafScore(t, append([]string{"-r", ref, "-d", dist}, tt.args...)...)
		if res.code == 0 || !strings.Contains(res.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, res.code, res.stderr, tt.want)
		}
	}
}
