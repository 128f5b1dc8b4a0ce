package control

import (
	"bytes"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestSocketMode(t *testing.T) {
	s := startTest(t, newFake(), Options{})
	fi, err := os.Lstat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v, want socket 0600", fi.Mode())
	}
	// The umask is back to what it was.
	old := syscall.Umask(0o022)
	syscall.Umask(old)
	if old == 0o177 {
		t.Error("umask left at 0177")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(s.Path()); !os.IsNotExist(err) {
		t.Errorf("socket still there after Close: %v", err)
	}
}

func TestSocketGroupMode(t *testing.T) {
	gid := os.Getegid()
	if gid == 0 {
		gid = 4 // any existing group will do for the mode check; root may chown to it
	}
	s := startTest(t, newFake(), Options{AllowGID: gid})
	fi, err := os.Lstat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if fi.Mode().Perm() != 0o660 || int(st.Gid) != gid {
		t.Errorf("socket mode %v group %d, want 0660 group %d", fi.Mode().Perm(), st.Gid, gid)
	}
}

func TestSocketPathChecks(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("keep me"), 0o644)

	live := filepath.Join(dir, "live.sock")
	ln, err := net.Listen("unix", live)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()

	stale := filepath.Join(dir, "stale.sock")
	sl, err := net.Listen("unix", stale)
	if err != nil {
		t.Fatal(err)
	}
	sl.(*net.UnixListener).SetUnlinkOnClose(false)
	sl.Close() // the file stays; nothing listens

	tests := []struct {
		name, path, want string // want: error text, or "" for success
	}{
		{"missing directory", filepath.Join(dir, "nope", "x.sock"), "does not exist"},
		{"directory is a file", filepath.Join(plain, "x.sock"), "not a directory"},
		{"not a socket", plain, "not a socket"},
		{"live server", live, "in use"},
		{"too long", filepath.Join(dir, strings.Repeat("x", 120)), "at most"},
		{"empty", "", "empty"},
		{"stale socket", stale, ""},
	}
	for _, tt := range tests {
		s, err := Start(tt.path, newFake(), Options{})
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			} else {
				s.Close()
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want one with %q", tt.name, err, tt.want)
		}
		if s != nil {
			s.Close()
		}
	}
	if b, err := os.ReadFile(plain); err != nil || string(b) != "keep me" {
		t.Errorf("a file that is not a socket was touched: %q %v", b, err)
	}
	if c, err := net.Dial("unix", live); err != nil {
		t.Errorf("the live server's socket was removed: %v", err)
	} else {
		c.Close()
	}
}

func TestCloseKeepsReplacedSocket(t *testing.T) {
	s := startTest(t, newFake(), Options{})
	// Someone else's socket now has the path (after removing ours).
	os.Remove(s.Path())
	ln, err := net.Listen("unix", s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	s.Close()
	if _, err := os.Lstat(s.Path()); err != nil {
		t.Errorf("Close removed a socket it did not create: %v", err)
	}
}

func TestPeerCheck(t *testing.T) {
	tests := []struct {
		name    string
		uid     int // the server's uid, as if another user ran it
		allow   int
		refused bool
	}{
		{"same user", os.Geteuid(), 0, false},
		{"other user", os.Geteuid() + 1000, 0, true},
		{"other user, our group allowed", os.Geteuid() + 1000, max(os.Getegid(), 1), os.Getegid() == 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(filepath.Join(t.TempDir(), "vmaf.sock"), newFake(), Options{AllowGID: tt.allow})
			s.uid = tt.uid // as if another user ran the server
			if err := s.start(); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			c := dialRaw(t, s.Path())
			if tt.refused {
				code, msg := errorCode(c.recv(t))
				if code != -32001 || !strings.Contains(msg, "not allowed") {
					t.Errorf("refusal = %v %q", code, msg)
				}
				return
			}
			c.initialize(t, "2025-11-25")
		})
	}
}

// TestPeerCredentials connects from a process running as another user:
// the socket mode keeps it out, unless its group is allowed, and then the
// SO_PEERCRED check lets it in.
func TestPeerCredentials(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run a client as another user")
	}
	socat, err := exec.LookPath("socat")
	if err != nil {
		t.Skip("needs socat as the other user's client")
	}
	const nobody, group = 65534, 4242
	tests := []struct {
		name   string
		allow  int
		gid    uint32
		groups []uint32
		want   string
	}{
		{"owner only", 0, group, nil, "Permission denied"},
		{"group allowed", group, group, nil, `"result"`},
		// The file mode lets a supplementary member in; SO_PEERCRED sees
		// only the primary group and refuses it.
		{"supplementary member", group, group + 1, []uint32{group}, "not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.Chmod(dir, 0o711)
			os.Chmod(filepath.Dir(dir), 0o711) // t.TempDir's parent is private too
			path := filepath.Join(dir, "vmaf.sock")
			s, err := Start(path, newFake(), Options{AllowGID: tt.allow})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			cmd := exec.Command(socat, "STDIO", "UNIX-CONNECT:"+path)
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: tt.gid, Groups: tt.groups}}
			// stdin stays open until the reply is in: EOF would end the session.
			stdin, _ := cmd.StdinPipe()
			var out syncBuffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// A refused peer is told at once: write only once the server
			// has taken the connection in, not into one it is closing.
			waitFor(t, 30*time.Second, "the connection taken in or refused", func() bool {
				return strings.Contains(out.String(), "\n") || s.Clients() == 1
			})
			io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"peer","version":"1"}}}`+"\n")
			waitFor(t, 30*time.Second, "socat output", func() bool { return strings.Contains(out.String(), "\n") })
			stdin.Close()
			cmd.Wait()
			if !strings.Contains(out.String(), tt.want) {
				t.Errorf("client as uid %d gid %d: %s\nwant %q", nobody, tt.gid, out.String(), tt.want)
			}
		})
	}
}

// syncBuffer is a bytes.Buffer a child process and a test may share.
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
