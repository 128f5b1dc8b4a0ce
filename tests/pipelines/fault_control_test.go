package pipelines

// Fault tests of the control plane: each attack of the hardening round,
// reproduced against a running element (gst-launch-1.0) or an in-process
// Runner with the control plane attached. Each checks that the host lives,
// the error is specific, and nothing already scored is lost.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// smallModelFile is a two-input libvmaf model over integer ADM and motion,
// written for these tests.
const smallModelFile = `{"model_dict": {
  "model_type": "LIBSVMNUSVR",
  "norm_type": "linear_rescale",
  "feature_names": ["VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score"],
  "slopes": [0.02, 1.0, 0.25],
  "intercepts": [-1.0, 0.0, 0.0],
  "score_clip": [0.0, 100.0],
  "model": "svm_type nu_svr\nkernel_type rbf\ngamma 0.25\nnr_class 2\ntotal_sv 2\nrho -1\nSV\n2 1:0.75 2:0.5 \n-1 1:0.2 2:0.1 \n"
}}`

// secretText stands for a file a client must never read through the
// control plane.
const secretText = "S3CR3T:$y$j9T$hash:19000:0:99999:7:::\n"

// hostileModelDir makes a model directory with a good model, a FIFO named
// like a model, and a link named like a model that leads to a secret.
func hostileModelDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "models")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "house.json"), []byte(smallModelFile), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "shadow")
	if err := os.WriteFile(secret, []byte(secretText), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "shadow.json")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// startControlled runs an endless pipeline (stopped with SIGINT, -e) whose
// element serves the control plane, and waits for its socket.
func startControlled(t *testing.T, props string) (p *gsttest.Process, sock, results string) {
	t.Helper()
	if _, err := exec.LookPath("gst-launch-1.0"); err != nil {
		t.Skip("gst-launch-1.0 is not installed")
	}
	dir := t.TempDir()
	sock, results = filepath.Join(dir, "vmaf.sock"), filepath.Join(dir, "results.json")
	desc := "videotestsrc pattern=ball ! " + testSrcCaps + " ! tee name=t t. ! queue ! v.ref_sink " +
		"t. ! queue ! videoflip method=horizontal-flip ! v.dist_sink vmafsink name=v threads=1 frame-message=false " +
		"results-filename=" + results + " results-format=json mcp-uds=" + sock + " " + props
	p = gsttest.StartArgs(t, []string{"-e"}, desc)
	waitSocket(t, p, sock)
	return p, sock, results
}

// stopControlled sends SIGINT and checks that the host ends within d,
// removed its socket and accounted for every frame.
func stopControlled(t *testing.T, p *gsttest.Process, sock, results string, d time.Duration) {
	t.Helper()
	t0 := time.Now()
	if err := p.Cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.Done():
		hostLived(t, err, p.Output())
		if err != nil {
			t.Fatalf("gst-launch failed: %v\n%s", err, p.Output())
		}
		t.Logf("gst-launch -e ended %v after SIGINT", time.Since(t0))
	case <-time.After(d):
		t.Fatalf("gst-launch still running %v after SIGINT:\n%s", d, p.Output())
	}
	if _, err := os.Lstat(sock); !os.IsNotExist(err) {
		t.Errorf("socket left behind: %v", err)
	}
	checkAccounted(t, p.Output(), results)
}

// TestFaultControlHostileModelDir: vmaf_list_models blocked for ever on a
// FIFO named *.json, about forty such calls took every client slot, and
// SIGINT then stalled for over 30 s; a link out of the directory had its
// target's bytes quoted in the listing.
func TestFaultControlHostileModelDir(t *testing.T) {
	dir := hostileModelDir(t)
	p, sock, results := startControlled(t, "model-dirs="+dir)
	const clients, calls = 10, 4
	var wg sync.WaitGroup
	replies := make(chan string, clients*calls)
	t0 := time.Now()
	for range clients {
		cs, _ := mcpConnect(t, sock)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range calls {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "vmaf_list_models"})
				cancel()
				if err != nil {
					replies <- "error: " + err.Error()
					continue
				}
				b, _ := json.Marshal(res)
				replies <- string(b)
			}
		}()
	}
	wg.Wait()
	close(replies)
	t.Logf("%d listings in %v", clients*calls, time.Since(t0))
	for r := range replies {
		if strings.HasPrefix(r, "error: ") || strings.Contains(r, `"isError":true`) {
			t.Fatalf("listing failed: %.300s", r)
		}
		if strings.Contains(r, "S3CR3T") || strings.Contains(r, "fifo") || strings.Contains(r, "shadow") {
			t.Fatalf("listing shows the FIFO, the link or the secret: %.2000s", r)
		}
		if !strings.Contains(r, `"name":"house"`) {
			t.Fatalf("listing lacks the good model: %.2000s", r)
		}
	}
	// Swapping to either is refused at once, without the secret.
	cs, _ := mcpConnect(t, sock)
	for _, model := range []string{"fifo", "shadow", filepath.Join(dir, "fifo.json")} {
		msg := mcpCall(t, cs, "vmaf_request_model_swap", map[string]any{"model": model}, nil)
		if msg == "" || strings.Contains(msg, "S3CR3T") {
			t.Errorf("swap to %s: %q", model, msg)
		}
	}
	mcpWaitStatus(t, cs, time.Minute, "scoring goes on", func(st control.Status) bool { return st.FramesScored >= 10 })
	stopControlled(t, p, sock, results, 30*time.Second)
}

// TestFaultControlNaN: a NaN option was accepted over MCP (1e30, -5 and Inf
// were refused), after which VMAF pinned at 100 while status still named
// the model vmaf_v0.6.1.
func TestFaultControlNaN(t *testing.T) {
	p, sock, results := startControlled(t, "")
	cs, _ := mcpConnect(t, sock)
	for _, v := range []string{"NaN", "nan", "-nan", "Inf", "-Infinity", "1e30", "-5"} {
		spec := "version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=" + v
		msg := mcpCall(t, cs, "vmaf_request_model_swap", map[string]any{"model": spec, "wait": true, "timeout_ms": 5000}, nil)
		if msg == "" {
			t.Errorf("%s accepted", spec)
		} else if strings.Contains(strings.ToLower(v), "nan") && !strings.Contains(msg, "not a finite number") {
			t.Errorf("%s: %q does not say why", spec, msg)
		}
	}
	st := mcpWaitStatus(t, cs, time.Minute, "more frames", func(st control.Status) bool { return st.FramesScored >= 10 })
	if st.Model != "vmaf_v0.6.1" || len(st.Swaps) != 0 || st.CommandsPending != 0 {
		t.Errorf("after the refused swaps: model %s, %d swaps, %d commands pending", st.Model, len(st.Swaps), st.CommandsPending)
	}
	stopControlled(t, p, sock, results, 30*time.Second)
}

// TestFaultElementNaNModel: the model property refuses a NaN option with
// an element error, and the host exits normally.
func TestFaultElementNaNModel(t *testing.T) {
	if _, err := exec.LookPath("gst-launch-1.0"); err != nil {
		t.Skip("gst-launch-1.0 is not installed")
	}
	run := gsttest.Launch(t, time.Minute, teePair+" model=version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=NaN")
	hostLived(t, run.Err, run.Output)
	if !strings.Contains(run.Output, "ERROR") || !strings.Contains(run.Output, "not a finite number") {
		t.Errorf("want an element error saying the option is not finite:\n%s", run.Output)
	}
	if n := len(run.Frames()); n != 0 {
		t.Errorf("%d frames scored with a NaN option", n)
	}
}

var (
	vmafctlOnce  sync.Once
	vmafctlPath  string
	vmafctlBuild error
)

// vmafctlBin builds the command-line client from this tree, once per test
// process.
func vmafctlBin(t *testing.T) string {
	t.Helper()
	vmafctlOnce.Do(func() {
		vmafctlPath = filepath.Join(gsttest.TempRoot(t), "vmafctl")
		cmd := exec.Command("go", "build", "-o", vmafctlPath, "./cmd/vmafctl")
		cmd.Dir = gsttest.RepoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			vmafctlBuild = fmt.Errorf("go build ./cmd/vmafctl: %v\n%s", err, out)
		}
	})
	if vmafctlBuild != nil {
		t.Fatal(vmafctlBuild)
	}
	return vmafctlPath
}

// TestFaultControlIdleClients: 32 connections that never sent a byte kept
// every new client refused for as long as they stayed. Now one process
// holds at most half the slots, and a client that has not sent initialize
// within 5 s is disconnected. The test's idle connections send one ping,
// whose answer shows they were taken in (not refused for a connection
// of this process the server has not yet let go).
func TestFaultControlIdleClients(t *testing.T) {
	p, sock, results := startControlled(t, "mcp-max-clients=4")
	var idle []net.Conn
	for range 2 {
		// Taken in (its ping answered: waitSocket's probe has left) and
		// never initialized: a ping alone opens no session.
		c := dialWhenFree(t, sock)
		defer c.Close()
		idle = append(idle, c)
	}
	// A third connection of this process is refused, with the reason.
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(time.Minute))
	line := make([]byte, 4096)
	n, _ := c.Read(line)
	c.Close()
	if !strings.Contains(string(line[:n]), fmt.Sprintf("process %d already has 2 connections", os.Getpid())) {
		t.Errorf("third connection of one process: %q", line[:n])
	}
	// Another process still gets in, and vmafctl shows a refusal's reason.
	out, err := exec.Command(vmafctlBin(t), "-s", sock, "status").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "running") {
		t.Errorf("vmafctl status while this process holds its share: %v\n%s", err, out)
	}
	// The idle connections are cut at the handshake deadline.
	t0 := time.Now()
	for i, c := range idle {
		c.SetReadDeadline(time.Now().Add(time.Minute))
		var got []byte
		buf := make([]byte, 4096)
		for {
			n, err := c.Read(buf)
			got = append(got, buf[:n]...)
			if err != nil {
				break
			}
		}
		if !strings.Contains(string(got), "no initialize") {
			t.Errorf("idle connection %d: %q", i, got)
		}
	}
	t.Logf("idle connections cut after %v", time.Since(t0))
	// Their slots are free.
	for range 2 {
		cs, _ := mcpConnect(t, sock)
		mcpWaitStatus(t, cs, time.Minute, "status", func(control.Status) bool { return true })
	}
	// With the other two slots taken by a second process, mcp-max-clients
	// is reached: a third process is refused, and vmafctl says why.
	holder := holdSessions(t, sock, 2)
	out, err = exec.Command(vmafctlBin(t), "-s", sock, "status").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 4 || !strings.Contains(string(out), "4 clients already connected") {
		t.Errorf("vmafctl with every slot taken: %v\n%s", err, out)
	}
	holder.Process.Kill()
	holder.Wait()
	stopControlled(t, p, sock, results, 30*time.Second)
}

// holdSessions starts a process that opens n sessions on sock and keeps
// them until killed.
func holdSessions(t *testing.T, sock string, n int) *exec.Cmd {
	t.Helper()
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skip("needs python3 for a second client process")
	}
	script := `import socket, sys, time
conns = []
for _ in range(int(sys.argv[2])):
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rb")
    s.sendall(b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"holder","version":"1"}}}\n')
    if b'"result"' not in f.readline(): sys.exit("refused")
    conns.append((s, f))
print("held", flush=True)
time.sleep(120)
`
	cmd := exec.Command(py, "-c", script, sock, fmt.Sprint(n))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	buf := make([]byte, 16)
	if n, _ := stdout.Read(buf); !strings.HasPrefix(string(buf[:n]), "held") {
		t.Fatalf("the holder process did not get its sessions: %q", buf[:n])
	}
	return cmd
}

// TestFaultControlLongStrings: eight swaps with a 900 KB name made one
// vmaf_status reply 28.8 MB and the host's RSS rise from 64 to 675 MB.
// Long strings are refused now and the swap history in status is bounded.
func TestFaultControlLongStrings(t *testing.T) {
	p, sock, results := startControlled(t, "")
	cs, _ := mcpConnect(t, sock)
	mcpWaitStatus(t, cs, time.Minute, "5 frames", func(st control.Status) bool { return st.FramesScored >= 5 })
	rssBefore, _ := p.RSS()
	long := strings.Repeat("n", 900<<10)
	for i := range 8 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "vmaf_request_model_swap", Arguments: map[string]any{"model": "vmaf_v0.6.1neg", "name": fmt.Sprintf("%d%s", i, long)}})
		cancel()
		if err == nil && !res.IsError {
			t.Fatalf("swap %d with a 900 KB name accepted", i)
		}
		if err != nil && !strings.Contains(err.Error(), "strings are at most 4096") {
			t.Errorf("swap %d: %v", i, err)
		}
	}
	// Names up to the bound are fine; forty swaps leave the reply small.
	for i := range 40 {
		model := []string{"vmaf_v0.6.1neg", "vmaf_v0.6.1"}[i%2]
		name := fmt.Sprintf("n%03d%s", i, strings.Repeat("n", 252))
		if msg := mcpCall(t, cs, "vmaf_request_model_swap", map[string]any{"model": model, "name": name, "wait": true, "timeout_ms": 20000}, nil); msg != "" {
			t.Fatalf("swap %d: %s", i, msg)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	t0 := time.Now()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "vmaf_status"})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(t0)
	b, _ := json.Marshal(res)
	rssAfter, _ := p.RSS()
	t.Logf("vmaf_status reply %d bytes in %v after 8 refused 900 KB names and 40 swaps with 256-byte names; RSS %.1f MB before, %.1f MB after",
		len(b), took, float64(rssBefore)/1e6, float64(rssAfter)/1e6)
	var st control.Status
	json.Unmarshal(mustJSON(t, res.StructuredContent), &st)
	if len(b) > 64<<10 || len(st.Swaps) > 16 || st.SwapsOmitted != 24 {
		t.Errorf("status reply %d bytes with %d swaps (%d omitted)", len(b), len(st.Swaps), st.SwapsOmitted)
	}
	if rssAfter > rssBefore+100<<20 {
		t.Errorf("RSS rose from %d to %d bytes", rssBefore, rssAfter)
	}
	stopControlled(t, p, sock, results, 30*time.Second)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFaultControlClientVanishes: clients that disconnect mid-subscription
// and mid-call cost the pipeline nothing and give their slot back.
func TestFaultControlClientVanishes(t *testing.T) {
	p, sock, results := startControlled(t, "mcp-max-clients=1")
	// Mid-subscription: subscribed, reading, gone.
	ev := &mcpEvents{}
	cs := connectWhenFree(t, sock, &mcp.ClientOptions{ResourceUpdatedHandler: func(context.Context, *mcp.ResourceUpdatedNotificationRequest) {
		ev.mu.Lock()
		ev.updates = append(ev.updates, mcpUpdate{at: time.Now()})
		ev.mu.Unlock()
	}})
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "vmaf://scores/live"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for ups, _ := ev.snapshot(); len(ups) < 5; ups, _ = ev.snapshot() {
		if time.Now().After(deadline) {
			t.Fatal("no live notifications")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cs.Close()
	// Mid-call: a swap waiting for its frame boundary, and the client gone.
	raw := dialWhenFree(t, sock)
	raw.Write([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"vmaf_pause","arguments":{"wait":true}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"vmaf_request_model_swap","arguments":{"model":"vmaf_v0.6.1neg","wait":true}}}` + "\n"))
	// Gone once the server has taken the calls up: the pause's answer
	// (the first call's) has come.
	raw.SetReadDeadline(time.Now().Add(time.Minute))
	for r := bufio.NewReader(raw); ; {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("no answer to the pause: %v", err)
		}
		var m struct{ ID any }
		if json.Unmarshal([]byte(line), &m) == nil && m.ID == 1.0 {
			break
		}
	}
	raw.Close()
	// The one slot is free again, the pause and the swap were applied, and
	// scoring goes on after a resume.
	cs2 := connectWhenFree(t, sock, nil)
	defer cs2.Close()
	mcpCall(t, cs2, "vmaf_resume", map[string]any{"wait": true}, nil)
	st := mcpWaitStatus(t, cs2, time.Minute, "the swap applied and scoring on", func(st control.Status) bool {
		return st.State == control.StateRunning && len(st.Swaps) == 1
	})
	n := st.FramesScored
	mcpWaitStatus(t, cs2, time.Minute, "more frames", func(st control.Status) bool { return st.FramesScored > n+5 })
	stopControlled(t, p, sock, results, 30*time.Second)
}

// connectWhenFree opens an MCP session once the server takes a client.
func connectWhenFree(t *testing.T, sock string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		conn, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "fault", Version: "1"}, opts).Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
		cancel()
		if err == nil {
			return cs
		}
		conn.Close()
		if time.Now().After(deadline) {
			t.Fatalf("no free slot: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// dialWhenFree connects once the server takes a client: a ping before
// initialize is answered by a server that took the connection, a refused
// one gets an error line and is closed.
func dialWhenFree(t *testing.T, sock string) net.Conn {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(time.Minute))
		var line []byte
		_, err = c.Write([]byte(`{"jsonrpc":"2.0","id":"admitted","method":"ping"}` + "\n"))
		// Byte by byte: what follows the answer is the caller's to read.
		for b := make([]byte, 1); err == nil && (len(line) == 0 || line[len(line)-1] != '\n'); {
			if _, err = c.Read(b); err == nil {
				line = append(line, b[0])
			}
		}
		c.SetDeadline(time.Time{})
		if err == nil && strings.Contains(string(line), `"id":"admitted","result"`) {
			return c
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatalf("no free slot: %q (%v)", line, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestFaultControlModelFileChanges: the model file deleted or truncated
// between vmaf_request_model_swap and the frame boundary that applies it.
// The model was loaded and checked when requested, so the swap applies as
// validated; a file truncated before the request is refused with a clear
// error and the current model keeps scoring. Nothing scored is lost.
func TestFaultControlModelFileChanges(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"gone.json", "cut.json", "early.json"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(smallModelFile), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := mcpStart(t, mcpConfig{modelDirs: []string{dir}})
	cs, _ := mcpConnect(t, run.sock)
	ref, dist := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, "flower_576x324_x264_crf22")
	push := func(from, to int) {
		for i := from; i < to; i++ {
			if err := run.r.Push(pipeline.Ref, pipeline.Frame{Picture: ref[i%len(ref)], Timing: pipeline.Untimed}); err != nil {
				t.Fatal(err)
			}
			if err := run.r.Push(pipeline.Dist, pipeline.Frame{Picture: dist[i%len(dist)], Timing: pipeline.Untimed}); err != nil {
				t.Fatal(err)
			}
		}
	}
	push(0, 6)
	// Truncated before the request: refused, the current model goes on.
	os.Truncate(filepath.Join(dir, "early.json"), 10)
	if msg := mcpCall(t, cs, "vmaf_request_model_swap", map[string]any{"model": "early"}, nil); !strings.HasPrefix(msg, control.CodeInvalidModel) {
		t.Errorf("swap to a truncated file: %q", msg)
	}
	// Deleted after the request.
	var c1, c2 control.Command
	if msg := mcpCall(t, cs, "vmaf_request_model_swap", map[string]any{"model": "gone"}, &c1); msg != "" {
		t.Fatal(msg)
	}
	os.Remove(filepath.Join(dir, "gone.json"))
	push(6, 12)
	// Truncated after the request.
	if msg := mcpCall(t, cs, "vmaf_request_model_swap", map[string]any{"model": "cut"}, &c2); msg != "" {
		t.Fatal(msg)
	}
	os.Truncate(filepath.Join(dir, "cut.json"), 10)
	push(12, 18)
	if err := run.r.Finish(); err != nil {
		t.Fatal(err)
	}
	recs := run.records()
	if len(recs) != 18 {
		t.Fatalf("%d records, want 18", len(recs))
	}
	for i, r := range recs {
		want := "vmaf_v0.6.1"
		switch {
		case i >= 12:
			want = filepath.Join(dir, "cut.json")
		case i >= 6:
			want = filepath.Join(dir, "gone.json")
		}
		if got := r.Model().Version; r.Index != i || !strings.HasSuffix(got, filepath.Base(want)) && got != want {
			t.Errorf("record %d: index %d, model %s, want %s", i, r.Index, got, want)
		}
	}
}

// TestFaultControlRelativePath: a relative model path resolved against the
// host's working directory and showed it in errors.
func TestFaultControlRelativePath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "house.json"), []byte(smallModelFile), 0o644); err != nil {
		t.Fatal(err)
	}
	run := mcpStart(t, mcpConfig{modelDirs: []string{dir}})
	cs, _ := mcpConnect(t, run.sock)
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, filepath.Join(dir, "house.json"))
	if err != nil {
		t.Skip(err)
	}
	for _, model := range []string{rel, "path=" + rel, "./house.json"} {
		msg := mcpCall(t, cs, "vmaf_request_model_swap", map[string]any{"model": model}, nil)
		if !strings.HasPrefix(msg, control.CodeUnknownModel) || !strings.Contains(msg, "absolute path") || strings.Contains(msg, wd) {
			t.Errorf("swap to %s: %q", model, msg)
		}
	}
	// The model's name and its absolute path still work.
	for _, model := range []string{"house", filepath.Join(dir, "house.json")} {
		if msg := mcpCall(t, cs, "vmaf_request_model_swap", map[string]any{"model": model}, nil); msg != "" {
			t.Errorf("swap to %s: %s", model, msg)
		}
	}
}

// TestFaultControlScoreCapped: vmaf_score last=1000 returned the 256
// records kept without saying so.
func TestFaultControlScoreCapped(t *testing.T) {
	run := mcpStart(t, mcpConfig{})
	ref, dist := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, "flower_576x324_x264_crf22")
	loops := 300/len(ref) + 1
	if st := <-run.feed(ref, dist, 0, loops); st.err != nil {
		t.Fatal(st.err)
	}
	cs, _ := mcpConnect(t, run.sock)
	var sc control.Scores
	if msg := mcpCall(t, cs, "vmaf_score", map[string]any{"last": 1000}, &sc); msg != "" {
		t.Fatal(msg)
	}
	if len(sc.Records) != pipeline.DefaultRecent || sc.Capped == nil || sc.Capped.Asked != 1000 || sc.Capped.Returned != pipeline.DefaultRecent {
		t.Errorf("last=1000 after %d frames: %d records, capped %+v", loops*len(ref), len(sc.Records), sc.Capped)
	}
}
