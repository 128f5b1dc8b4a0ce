package pipelines

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// liveSources is a pair of endless live test patterns for vmafsink's
// pads, for runs that end when the test kills them.
const liveSources = "videotestsrc is-live=true pattern=ball ! video/x-raw,format=I420,width=160,height=120,framerate=25/1 ! v.ref_sink " +
	"videotestsrc is-live=true pattern=ball ! video/x-raw,format=I420,width=160,height=120,framerate=25/1 ! v.dist_sink "

// TestElementMCPAllowGID runs vmafsink with mcp-allow-gid and connects as
// another user: the socket is mode 0660 and belongs to the group; a peer
// whose primary group it is gets an MCP session; a peer outside the group
// is kept out by the socket's mode; a peer that has the group only as a
// supplementary group passes the mode but not the SO_PEERCRED check.
func TestElementMCPAllowGID(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to connect as another user")
	}
	socat, err := exec.LookPath("socat")
	if err != nil {
		t.Skip("needs socat")
	}
	if _, err := exec.LookPath("gst-launch-1.0"); err != nil {
		t.Skip("gst-launch-1.0 is not installed")
	}
	const nobody, group = 65534, 4243
	dir := t.TempDir()
	// The peers must reach the socket through the test's directories.
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o711); err != nil {
			t.Fatal(err)
		}
	}
	sock := filepath.Join(dir, "vmaf.sock")
	p := gsttest.Start(t, fmt.Sprintf("%s vmafsink name=v mcp-uds=%s mcp-allow-gid=%d", liveSources, sock, group))
	waitSocket(t, p, sock)

	// The socket is given to the group just after it is bound: the file
	// can be seen a moment before (peers are checked by SO_PEERCRED, so
	// nobody gets in meanwhile).
	var st syscall.Stat_t
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if err := syscall.Stat(sock, &st); err != nil {
			t.Fatal(err)
		}
		if st.Gid == group || time.Now().After(deadline) {
			break
		}
	}
	if st.Mode&0o777 != 0o660 || st.Gid != group {
		t.Errorf("socket mode %o group %d, want 0660 and group %d", st.Mode&0o777, st.Gid, group)
	}

	for _, tc := range []struct {
		name   string
		gid    uint32
		groups []uint32
		want   string
	}{
		{"primary member", group, nil, `"protocolVersion"`},
		{"outsider", group + 1, nil, "Permission denied"},
		{"supplementary member", group + 1, []uint32{group}, "not allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The request goes out at once and stdin stays open until the
			// answer or the server's hang-up: a peer's end of input ends
			// its session before the answer.
			cmd := exec.Command(socat, "STDIO", "UNIX-CONNECT:"+sock)
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: tc.gid, Groups: tc.groups}}
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = cmd.Stdout
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// A refused peer is told so as soon as it connects, and the
			// server hangs up: a request written then could fail with a
			// broken pipe before the refusal is read, so only the peer
			// that is let in sends one.
			if tc.gid == group {
				fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"peer","version":"1"}}}`)
			}
			out := readUntil(t, stdout, tc.want, 30*time.Second)
			stdin.Close()
			cmd.Wait()
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("uid %d gid %d groups %v: %q, want %q", nobody, tc.gid, tc.groups, out, tc.want)
			}
		})
	}
	select {
	case err := <-p.Done():
		t.Fatalf("the pipeline ended while peers connected (%v):\n%s", err, p.Output())
	default:
	}
}

// TestElementMCPAllowGIDRoot checks that mcp-allow-gid=0, which the
// control plane would read as no group, stops the element with an error
// naming the property rather than serving a socket the group cannot use.
func TestElementMCPAllowGIDRoot(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "vmaf.sock")
	run := gsttest.Launch(t, time.Minute, fmt.Sprintf("%s vmafsink name=v mcp-uds=%s mcp-allow-gid=0", liveSources, sock))
	if run.Err == nil || !strings.Contains(run.Output, "mcp-allow-gid 0") {
		t.Errorf("gst-launch with mcp-allow-gid=0: %v\n%s", run.Err, run.Output)
	}
	if _, err := os.Lstat(sock); !os.IsNotExist(err) {
		t.Errorf("socket %s exists after the failed start: %v", sock, err)
	}
}

// readUntil reads r until what it read contains want, r ends or the
// timeout passes, and returns what it read.
func readUntil(t *testing.T, r io.Reader, want string, timeout time.Duration) string {
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
	for !strings.Contains(got.String(), want) {
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
