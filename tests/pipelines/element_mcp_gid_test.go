package pipelines

import (
	"fmt"
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
	socat := needPeerClient(t)
	if _, err := exec.LookPath("gst-launch-1.0"); err != nil {
		t.Skip("gst-launch-1.0 is not installed")
	}
	const nobody, group = 65534, 4243
	p, sock := startGroupSocket(t, "mcp-allow-gid", group)

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
			stdin, stdout, cmd := socatAs(t, socat, sock, &syscall.Credential{Uid: nobody, Gid: tc.gid, Groups: tc.groups})
			// A refused peer is told so as soon as it connects, and the
			// server hangs up: a request written then could fail with a
			// broken pipe before the refusal is read, so only the peer
			// that is let in sends one.
			if tc.gid == group {
				fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"peer","version":"1"}}}`)
			}
			out := readUntil(t, stdout, 30*time.Second, tc.want)
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

// startGroupSocket starts vmafsink on liveSources with its control socket
// in a directory other users may enter, given to group by prop
// (mcp-allow-gid or mcp-readonly-gid), waits for the socket and checks
// that the group alone may use it (mode 0660).
func startGroupSocket(t *testing.T, prop string, group uint32, env ...string) (*gsttest.Process, string) {
	t.Helper()
	dir := t.TempDir()
	openToPeers(t, dir)
	sock := filepath.Join(dir, "vmaf.sock")
	p := gsttest.Start(t, fmt.Sprintf("%s vmafsink name=v mcp-uds=%s %s=%d", liveSources, sock, prop, group), env...)
	waitSocket(t, p, sock)
	if st := socketGroup(t, sock, group); st.Mode&0o777 != 0o660 || st.Gid != group {
		t.Errorf("socket mode %o group %d, want 0660 and group %d", st.Mode&0o777, st.Gid, group)
	}
	return p, sock
}
