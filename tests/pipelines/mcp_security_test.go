package pipelines

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/control/attach"
)

// TestMCPSocketLifecycle checks the socket a running pipeline serves on:
// mode 0600 from the start, a stale socket replaced, a live one (or any
// other file) never touched, a missing directory reported clearly, and
// the socket gone once the control plane closes.
func TestMCPSocketLifecycle(t *testing.T) {
	run := mcpStart(t, mcpConfig{})
	fi, err := os.Lstat(run.sock)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v, want 0600", fi.Mode())
	}

	// A second pipeline on the same path refuses to start and leaves the
	// first one's socket alone.
	other := mcpStart(t, mcpConfig{noControl: true})
	if _, err := attach.Start(attach.Config{Socket: run.sock, Runner: other.r}); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("second server on a live socket: %v", err)
	}
	if c, err := net.Dial("unix", run.sock); err != nil {
		t.Errorf("the live socket was disturbed: %v", err)
	} else {
		c.Close()
	}

	// Missing directory; a regular file in the way.
	dir := t.TempDir()
	if _, err := attach.Start(attach.Config{Socket: filepath.Join(dir, "no", "vmaf.sock"), Runner: other.r}); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing directory: %v", err)
	}
	plain := filepath.Join(dir, "notes")
	os.WriteFile(plain, []byte("keep"), 0o644)
	if _, err := attach.Start(attach.Config{Socket: plain, Runner: other.r}); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("regular file in the way: %v", err)
	}

	// A stale socket (its server died without removing it) is replaced.
	stale := filepath.Join(dir, "stale.sock")
	ln, err := net.Listen("unix", stale)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	p, err := attach.Start(attach.Config{Socket: stale, Runner: other.r})
	if err != nil {
		t.Fatalf("stale socket: %v", err)
	}
	cs, _ := mcpConnect(t, stale)
	var st control.Status
	if msg := mcpCall(t, cs, "vmaf_status", nil, &st); msg != "" || st.Socket != stale {
		t.Errorf("status over the replaced socket: %q %+v", msg, st)
	}
	cs.Close()
	p.Close()
	if _, err := os.Lstat(stale); !os.IsNotExist(err) {
		t.Errorf("socket left after close: %v", err)
	}
}

// TestMCPPeerCheck connects as another user: the socket's mode keeps the
// process out, and when a group is allowed, SO_PEERCRED admits a primary
// member and refuses a supplementary one.
func TestMCPPeerCheck(t *testing.T) {
	socat := needPeerClient(t)
	const nobody, group = 65534, 4243
	for _, tc := range []struct {
		name   string
		allow  int
		gid    uint32
		groups []uint32
		want   string
	}{
		{"owner only", 0, group, nil, "Permission denied"},
		{"group member", group, group, nil, `"protocolVersion"`},
		{"supplementary member", group, group + 1, []uint32{group}, "not allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := mcpStart(t, mcpConfig{noControl: true})
			dir := t.TempDir()
			openToPeers(t, dir)
			sock := filepath.Join(dir, "vmaf.sock")
			p, err := attach.Start(attach.Config{Socket: sock, Runner: run.r, Options: control.Options{AllowGID: tc.allow}})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			cmd := exec.Command(socat, "-t", "1", "STDIO", "UNIX-CONNECT:"+sock)
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: tc.gid, Groups: tc.groups}}
			stdin, _ := cmd.StdinPipe()
			out := &lockedBuffer{}
			cmd.Stdout, cmd.Stderr = out, out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// A refused peer hears at once: write only once the server has
			// taken the connection in, and stop once it has answered.
			said := func() bool { return strings.Contains(out.String(), "\n") }
			waitFor(t, time.Minute, "the connection taken in or refused", func() bool { return said() || p.Server().Clients() == 1 })
			fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"peer","version":"1"}}}`)
			waitFor(t, time.Minute, "an answer", said)
			stdin.Close()
			cmd.Wait()
			if !strings.Contains(out.String(), tc.want) {
				t.Errorf("uid %d gid %d groups %v: %q, want %q", nobody, tc.gid, tc.groups, out.String(), tc.want)
			}
		})
	}
}

// TestMCPBadInput sends what a broken or hostile client might while a
// pipeline scores: each gets a clear JSON-RPC or tool error, the session
// goes on, and so does the pipeline, to the last frame.
func TestMCPBadInput(t *testing.T) {
	ref, dist := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, "flower_576x324_x264_crf22")
	run := mcpStart(t, mcpConfig{opts: control.Options{MaxLineBytes: 64 << 10}})
	done := run.feed(ref, dist, 20*time.Millisecond, 1)

	c, err := net.Dial("unix", run.sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReaderSize(c, 1<<20)
	recv := func() map[string]any {
		c.SetReadDeadline(time.Now().Add(time.Minute))
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			var m map[string]any
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatalf("server wrote %q", line)
			}
			if _, ok := m["method"]; !ok {
				return m
			}
		}
	}
	send := func(s string) { fmt.Fprintln(c, s) }
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bad","version":"1"}}}`)
	recv()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	call := func(name, args string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, name, args)
	}
	for _, tc := range []struct {
		name, line string
		want       string // in the error message or the tool error text
	}{
		{"malformed JSON", `{"jsonrpc":"2.0","id":1,"method":"tools/call",`, "parse error"},
		{"oversized", `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"` + strings.Repeat("y", 70<<10) + `"}}`, "65536-byte limit"},
		{"unknown tool", call("vmaf_reboot", `{}`), "unknown tool"},
		{"wrong argument type", call("vmaf_score", `{"last":"all"}`), "last"},
		{"argument out of range", call("vmaf_score", `{"last":100000}`), "last"},
		{"unknown argument", call("vmaf_pause", `{"force":true}`), "force"},
		{"model path outside the model directories", call("vmaf_request_model_swap", `{"model":"/etc/passwd"}`), control.CodeForbiddenPath},
		{"unknown model", call("vmaf.request_model_swap", `{"model":"vmaf_v9"}`), control.CodeUnknownModel},
		{"bad spec", call("vmaf_request_model_swap", `{"model":"version=vmaf_v0.6.1:bogus"}`), control.CodeBadRequest},
	} {
		send(tc.line)
		m := recv()
		text := ""
		if e, ok := m["error"].(map[string]any); ok {
			text, _ = e["message"].(string)
		} else if res, ok := m["result"].(map[string]any); ok && res["isError"] == true {
			text = fmt.Sprint(res["content"])
		}
		if !strings.Contains(text, tc.want) {
			t.Errorf("%s: reply %v, want an error mentioning %q", tc.name, m, tc.want)
		}
	}
	send(call("vmaf_status", `{}`))
	if m := recv(); m["result"] == nil {
		t.Errorf("status after the bad input: %v", m)
	}
	st := <-done
	if st.err != nil {
		t.Fatal(st.err)
	}
	if got := len(run.records()); got != len(ref) {
		t.Errorf("pipeline scored %d of %d frames around the bad input", got, len(ref))
	}
}
