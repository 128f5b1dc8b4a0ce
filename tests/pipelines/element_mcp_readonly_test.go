package pipelines

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// TestElementMCPReadOnlyGID runs vmafsink with mcp-readonly-gid and
// connects as another user whose primary group it is: the socket is given
// to the group (0660); the peer reads vmaf_status but is refused
// vmaf_pause with read_only; the refusal is in the GStreamer debug log
// with the peer's pid and uid.
func TestElementMCPReadOnlyGID(t *testing.T) {
	socat := needPeerClient(t)
	if _, err := exec.LookPath("gst-launch-1.0"); err != nil {
		t.Skip("gst-launch-1.0 is not installed")
	}
	const nobody, group = 65534, 4245
	p, sock := startGroupSocket(t, "mcp-readonly-gid", group, "GST_DEBUG=vmafsink:4")

	stdin, stdout, cmd := socatAs(t, socat, sock, &syscall.Credential{Uid: nobody, Gid: group})
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"peer","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"vmaf_status","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"vmaf_pause","arguments":{}}}`,
	} {
		fmt.Fprintln(stdin, line)
	}
	// The replies may come in any order: the server answers requests
	// concurrently.
	out := readUntil(t, stdout, 30*time.Second, `"id":2`, `"id":3`)
	stdin.Close()
	cmd.Wait()
	if !strings.Contains(out, `"engine_used":"native"`) || !strings.Contains(out, `"state":`) {
		t.Errorf("read-only peer's vmaf_status: %s", out)
	}
	if !strings.Contains(out, `"isError":true`) || !strings.Contains(out, "read_only: peer pid") {
		t.Errorf("read-only peer's vmaf_pause was not refused with read_only: %s", out)
	}
	for deadline := time.Now().Add(time.Minute); !strings.Contains(p.Output(), "outcome=refused"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			break
		}
	}
	if log := p.Output(); !strings.Contains(log, "control command tool=vmaf_pause outcome=refused transport=uds pid=") ||
		!strings.Contains(log, "uid=65534 gid=4245 role=read_only") {
		t.Errorf("no refusal with the peer's pid and uid in the debug log:\n%s", log)
	}
}

// TestElementMCPReadOnlyGIDRoot: mcp-readonly-gid=0 stops the element
// with an error naming the property.
func TestElementMCPReadOnlyGIDRoot(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "vmaf.sock")
	run := gsttest.Launch(t, time.Minute, fmt.Sprintf("%s vmafsink name=v mcp-uds=%s mcp-readonly-gid=0", liveSources, sock))
	if run.Err == nil || !strings.Contains(run.Output, "mcp-readonly-gid 0") {
		t.Errorf("gst-launch with mcp-readonly-gid=0: %v\n%s", run.Err, run.Output)
	}
}
