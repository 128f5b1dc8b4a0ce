package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// nobodyUID is the unprivileged user the impostor runs as.
const nobodyUID = 65534

// TestFaultImpostorServer: in a directory anyone may write without the
// sticky bit, another user replaced the control socket with their own and
// vmafctl talked to it. It now checks the server's uid (SO_PEERCRED) and
// refuses, naming it.
func TestFaultImpostorServer(t *testing.T) {
	socat, err := exec.LookPath("socat")
	if err != nil {
		t.Fatal("socat is not installed (scripts/deps.sh installs it)")
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the impostor as another user")
	}
	dir := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o777) // past the umask: writable by all, not sticky
	for d := filepath.Dir(dir); d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		os.Chmod(d, 0o711)
	}
	sock := filepath.Join(dir, "vmaf.sock")
	imp := exec.Command(socat, "UNIX-LISTEN:"+sock+",fork", "SYSTEM:cat")
	imp.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobodyUID, Gid: nobodyUID}}
	if err := imp.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { imp.Process.Kill(); imp.Wait() })
	// The socket file appears at bind, before the impostor listens: wait
	// until a connection is taken.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		c, err := net.Dial("unix", sock)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the impostor never took a connection: %v", err)
		}
	}
	for _, args := range [][]string{{"status"}, {"stdio"}} {
		code, _, stderr := vmafctl(t, append([]string{"-s", sock, "-timeout", "5s"}, args...)...)
		if code != exitRefused || !strings.Contains(stderr, "runs as uid 65534") || !strings.Contains(stderr, "replaced the socket") {
			t.Errorf("vmafctl %v against an impostor: exit %d, %q", args, code, stderr)
		}
	}
	// Told that this uid runs the server, vmafctl goes on (and finds no
	// MCP server behind the socket).
	code, _, stderr := vmafctl(t, "-s", sock, "-timeout", "2s", "-server-uid", "65534", "status")
	if code == exitRefused || strings.Contains(stderr, "runs as uid") {
		t.Errorf("with -server-uid 65534: exit %d, %q", code, stderr)
	}
}
