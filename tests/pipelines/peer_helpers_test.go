package pipelines

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests that connect to a control socket as another user (nobody)
// need root, to take that user's credentials, and socat as its client.

// needPeerClient skips the test unless it can connect as another user,
// and returns socat.
func needPeerClient(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to connect as another user")
	}
	socat, err := exec.LookPath("socat")
	if err != nil {
		t.Skip("needs socat")
	}
	return socat
}

// openToPeers lets other users pass through dir and its parents up to the
// system's temporary directory (mode 0711), so that they reach a socket
// in dir: whether they may use it is then up to the socket's own mode.
func openToPeers(t *testing.T, dir string) {
	t.Helper()
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o711); err != nil {
			t.Fatal(err)
		}
	}
}

// socketGroup waits up to 2 s for sock to belong to group and returns its
// stat. The control plane gives the socket to the group just after binding
// it, so the file can be seen a moment before (peers are checked by
// SO_PEERCRED too, so nobody gets in meanwhile).
func socketGroup(t *testing.T, sock string, group uint32) syscall.Stat_t {
	t.Helper()
	var st syscall.Stat_t
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		if err := syscall.Stat(sock, &st); err != nil {
			t.Fatal(err)
		}
		if st.Gid == group || time.Now().After(deadline) {
			return st
		}
	}
}

// socatAs connects socat to sock with cred's credentials. What it prints,
// errors included, is read from out; closing in ends its input, and the
// caller waits for cmd.
func socatAs(t *testing.T, socat, sock string, cred *syscall.Credential) (in io.WriteCloser, out io.Reader, cmd *exec.Cmd) {
	t.Helper()
	cmd = exec.Command(socat, "STDIO", "UNIX-CONNECT:"+sock)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err = cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return in, out, cmd
}

// readUntil reads r until what it read contains each of wants, r ends or
// the timeout passes, and returns what it read.
func readUntil(t *testing.T, r io.Reader, timeout time.Duration, wants ...string) string {
	t.Helper()
	var got strings.Builder
	chunks := make(chan []byte)
	go func() {
		defer close(chunks)
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				chunks <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				return
			}
		}
	}()
	deadline := time.After(timeout)
	for !containsAll(got.String(), wants) {
		select {
		case c, ok := <-chunks:
			if !ok {
				return got.String()
			}
			got.Write(c)
		case <-deadline:
			return got.String()
		}
	}
	return got.String()
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
