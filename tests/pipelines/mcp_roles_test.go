package pipelines

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
)

// controlReport is what tests/mcp-client/control.mjs prints.
type controlReport struct {
	Server   struct{ Name, Version string }
	Tools    []string
	Calls    map[string]json.RawMessage
	Errors   map[string]string
	Progress map[string][]struct {
		Progress float64
		Total    *float64
		Message  string
	}
}

// lockedBuffer is a log the server writes from its goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestMCPRolesDescribeProgress runs the official TypeScript SDK's client
// against a live-paced run with mcp-readonly-gid set, twice: as another
// user whose primary group is the read-only group, which reads status,
// scores and model descriptions but is refused a swap, a pause and a
// resume (read_only); and as the owner, which describes vmaf_4k_v0.6.1,
// swaps to it on 576x324 frames and is told in the swap reply that it
// does not suit them, receives notifications/progress while the swap,
// pause and resume wait, and finds engine_used and the build's version
// (the serverInfo's) in the replies. Every command is in the control log
// with the peer's pid and uid.
func TestMCPRolesDescribeProgress(t *testing.T) {
	dir := tsClientDir(t)
	const nobody, readOnly = 65534, 4244
	var log lockedBuffer
	run := mcpStart(t, mcpConfig{opts: control.Options{ReadOnlyGID: readOnly,
		Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo}))}})
	ref, dist := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, "flower_576x324_x264_crf22")
	done := run.feed(ref, dist, 40*time.Millisecond, 100)
	defer func() {
		run.stopFeed()
		<-done
	}()

	var st syscall.Stat_t
	if err := syscall.Stat(run.sock, &st); err != nil {
		t.Fatal(err)
	}
	if st.Mode&0o777 != 0o660 || st.Gid != readOnly {
		t.Errorf("socket mode %o group %d, want 0660 and the read-only group %d", st.Mode&0o777, st.Gid, readOnly)
	}

	if os.Geteuid() == 0 {
		openToPeers(t, filepath.Dir(run.sock))
		ro := runControlClient(t, dir, run.sock, "readonly", &syscall.Credential{Uid: nobody, Gid: readOnly})
		for _, tool := range []string{"status", "score", "describe_4k"} {
			if len(ro.Calls[tool]) == 0 {
				t.Errorf("read-only peer: %s refused: %q", tool, ro.Errors[tool])
			}
		}
		for _, tool := range []string{"swap", "pause", "resume"} {
			if !strings.HasPrefix(ro.Errors[tool], control.CodeReadOnly+":") || !strings.Contains(ro.Errors[tool], "uid 65534") {
				t.Errorf("read-only peer: %s answered %q, %s", tool, ro.Errors[tool], ro.Calls[tool])
			}
		}
		if !strings.HasPrefix(ro.Errors["describe_unknown"], control.CodeUnknownModel) {
			t.Errorf("describe no_such_model: %q", ro.Errors["describe_unknown"])
		}
		if logged := log.String(); !strings.Contains(logged, "tool=vmaf_request_model_swap outcome=refused transport=uds pid=") ||
			!strings.Contains(logged, "uid=65534 gid=4244 role=read_only") {
			t.Errorf("control log has no refused swap with the peer's pid and uid:\n%s", logged)
		}
	} else {
		t.Log("not root: the read-only peer is not run (it needs another user)")
	}

	full := runControlClient(t, dir, run.sock, "full", nil)
	if full.Server.Name != "vmafsink" || full.Server.Version == "" || full.Server.Version == "dev" {
		t.Errorf("serverInfo %+v", full.Server)
	}
	var desc control.ModelDescription
	json.Unmarshal(full.Calls["describe_4k"], &desc)
	if desc.Source != "builtin" || desc.Viewing.Resolution != "3840x2160" || desc.Type != "LIBSVMNUSVR" || len(desc.Features) == 0 ||
		!strings.Contains(desc.MismatchedModelWarning, "576x324") {
		t.Errorf("vmaf_describe_model vmaf_4k_v0.6.1: %s", full.Calls["describe_4k"])
	}
	var boot control.ModelDescription
	json.Unmarshal(full.Calls["describe_b"], &boot)
	if !boot.Bootstrap || boot.Members == 0 || boot.Viewing.Resolution != "1920x1080" {
		t.Errorf("vmaf_describe_model vmaf_b_v0.6.3: %s", full.Calls["describe_b"])
	}
	var swap, pause, resume control.Command
	json.Unmarshal(full.Calls["swap"], &swap)
	json.Unmarshal(full.Calls["pause"], &pause)
	json.Unmarshal(full.Calls["resume"], &resume)
	if swap.Status != control.CommandApplied || swap.MismatchedModelWarning != desc.MismatchedModelWarning {
		t.Errorf("swap to vmaf_4k_v0.6.1 on 576x324: %s (errors %v), want the warning %q", full.Calls["swap"], full.Errors, desc.MismatchedModelWarning)
	}
	for name, c := range map[string]control.Command{"swap": swap, "pause": pause, "resume": resume} {
		if c.EngineUsed != "native" || c.Version != full.Server.Version {
			t.Errorf("%s reply: engine_used %q version %q, want native and %q", name, c.EngineUsed, c.Version, full.Server.Version)
		}
		ps := full.Progress[name]
		if len(ps) == 0 {
			t.Errorf("%s with wait: no progress notifications", name)
			continue
		}
		for i := 1; i < len(ps); i++ {
			if ps[i].Progress <= ps[i-1].Progress {
				t.Errorf("%s: progress %v after %v", name, ps[i].Progress, ps[i-1].Progress)
			}
		}
		// control.mjs records notifications as they arrive on the wire
		// (the SDK's onprogress loses those read together with the reply).
		if first := ps[0].Message; !strings.Contains(first, "waiting for the next frame boundary") {
			t.Errorf("%s: first progress message %q", name, first)
		}
	}
	var after control.Status
	json.Unmarshal(full.Calls["status_after"], &after)
	if after.Engine != "native" || after.EngineUsed != "native" || after.Version != full.Server.Version {
		t.Errorf("status engine %q engine_used %q version %q", after.Engine, after.EngineUsed, after.Version)
	}
	if logged := log.String(); !strings.Contains(logged, "tool=vmaf_request_model_swap outcome=enqueued transport=uds pid=") ||
		!strings.Contains(logged, "tool=vmaf_pause outcome=enqueued") || !strings.Contains(logged, "tool=vmaf_resume outcome=enqueued") {
		t.Errorf("control log lacks the owner's commands:\n%s", logged)
	}
	if ps := full.Progress["swap"]; len(ps) > 0 {
		t.Logf("swap: %d progress notifications, last %q", len(ps), ps[len(ps)-1].Message)
	}
}

// runControlClient runs control.mjs, as another user when cred is set.
func runControlClient(t *testing.T, dir, sock, mode string, cred *syscall.Credential) controlReport {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "control.mjs", sock, mode)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node control.mjs %s: %v\n%s", mode, err, out)
	}
	var rep controlReport
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("report %s: %v", out, err)
	}
	return rep
}
