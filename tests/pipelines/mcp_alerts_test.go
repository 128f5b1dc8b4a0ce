package pipelines

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/control/subscribe"
)

// The flower pair scores 95.3 to 99.1 (see TestElementWindowsAndAlerts):
// at 98.6 it has drops that begin and end inside the clip.
const alertThreshold = 98.6

const flowerFrame = 576 * 324 * 3 / 2

// alertRun is vmaf-score on the flower pair with its distorted frames
// fed through stdin, so the test decides how far the run has got.
type alertRun struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr strings.Builder
	dist   []byte
	sock   string
	out    string
}

func startAlertRun(t *testing.T, threshold float64, extra ...string) *alertRun {
	t.Helper()
	bin, _ := ffSetup(t)
	dir := t.TempDir()
	refYUV := ffClips.FFmpeg(t, "alerts_ref.yuv", "-i", ffClips.Y4M(t, "flower_576x324_ref.y4m"), "-f", "rawvideo")
	distYUV := ffClips.FFmpeg(t, "alerts_dist.yuv", "-i", ffClips.Y4M(t, "flower_576x324_x264_crf22.y4m"), "-f", "rawvideo")
	dist, err := os.ReadFile(distYUV)
	if err != nil {
		t.Fatal(err)
	}
	r := &alertRun{dist: dist, sock: filepath.Join(dir, "vmaf.sock"), out: filepath.Join(dir, "out.json")}
	r.cmd = exec.Command(bin, "-r", refYUV, "-d", "-", "-w", "576", "-h", "324", "-p", "420", "-b", "8",
		"--mcp-uds", r.sock, "--json", "-o", r.out, "--threads", "1", "-q",
		"--alert-threshold", fmt.Sprint(threshold), "--alert-frames", "1", "--window-frames", "10")
	r.cmd.Args = append(r.cmd.Args, extra...)
	if r.stdin, err = r.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	r.cmd.Stderr = &r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.cmd.Process.Kill(); r.cmd.Wait() })
	return r
}

func (r *alertRun) frames() int { return len(r.dist) / flowerFrame }

// feed writes distorted frames [from, to).
func (r *alertRun) feed(t *testing.T, from, to int) {
	t.Helper()
	if _, err := r.stdin.Write(r.dist[from*flowerFrame : to*flowerFrame]); err != nil {
		t.Fatal(err)
	}
}

func (r *alertRun) finish(t *testing.T) {
	t.Helper()
	r.stdin.Close()
	if err := r.cmd.Wait(); err != nil {
		t.Fatalf("vmaf-score: %v: %s", err, r.stderr.String())
	}
}

// vmafctlAsync runs the vmafctl binary and delivers its exit code and output.
func vmafctlAsync(t *testing.T, args ...string) <-chan [2]string {
	t.Helper()
	cmd := exec.Command(vmafctlBin(t), args...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan [2]string, 1)
	go func() {
		err := cmd.Wait()
		done <- [2]string{fmt.Sprint(cmd.ProcessState.ExitCode()), out.String() + fmt.Sprint(err)}
	}()
	return done
}

// waitAlertArmed starts vmafctl wait-alert and returns once it says it
// is waiting (subscribed: every drop that begins from then on reaches
// it), or has ended, with its exit code and output to come.
func waitAlertArmed(t *testing.T, args ...string) <-chan [2]string {
	t.Helper()
	cmd := exec.Command(vmafctlBin(t), args...)
	out := &lineSignal{want: "vmafctl: waiting for a quality drop below", seen: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan [2]string, 1)
	ended := make(chan struct{})
	go func() {
		err := cmd.Wait()
		close(ended)
		done <- [2]string{fmt.Sprint(cmd.ProcessState.ExitCode()), out.String() + fmt.Sprint(err)}
	}()
	select {
	case <-out.seen:
	case <-ended:
	}
	return done
}

// lineSignal collects output and closes seen once it holds want.
type lineSignal struct {
	mu   sync.Mutex
	buf  strings.Builder
	want string
	seen chan struct{}
	once sync.Once
}

func (w *lineSignal) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return n, err
}

func (w *lineSignal) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// alertClient is an MCP client subscribed to vmaf://alerts.
type alertClient struct {
	cs     *mcp.ClientSession
	mu     sync.Mutex
	alerts []control.Alert
}

func dialAlerts(t *testing.T, sock string) *alertClient {
	t.Helper()
	ac := &alertClient{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn := dialUnix(t, ctx, sock)
	c := mcp.NewClient(&mcp.Implementation{Name: "alerts-test", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			if req.Params.URI != "vmaf://alerts" {
				return
			}
			b, _ := json.Marshal(req.Params.Meta["alert"])
			var a control.Alert
			if json.Unmarshal(b, &a) == nil {
				ac.mu.Lock()
				ac.alerts = append(ac.alerts, a)
				ac.mu.Unlock()
			}
		}})
	acks := subscribe.New()
	c.AddReceivingMiddleware(acks.Middleware)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if err := acks.Subscribe(ctx, cs, "vmaf://alerts"); err != nil {
		t.Fatal(err)
	}
	ac.cs = cs
	return ac
}

func (ac *alertClient) got() []control.Alert {
	ac.mu.Lock()
	defer ac.mu.Unlock()
	return append([]control.Alert(nil), ac.alerts...)
}

// TestMCPAlerts: vmaf-score --mcp-uds with --alert-threshold between the
// clip's lowest and highest score. vmafctl wait-alert, started before
// any frame is scored, exits 0 with the first drop; a client subscribed
// to vmaf://alerts gets a begin and an end for every run of frames below
// the threshold, as the per-frame scores read back through vmaf_score
// {from, to} show them (scores-only before the last --mcp-recent frames),
// and those scores and drops are the results file's.
func TestMCPAlerts(t *testing.T) {
	const recent = 20 // full records kept: the older ones come back scores-only
	r := startAlertRun(t, alertThreshold, "--mcp-recent", fmt.Sprint(recent))
	n := r.frames()
	r.feed(t, 0, 1) // nothing scored yet: frame 0 waits for frame 1
	ac := dialAlerts(t, r.sock)
	wait := waitAlertArmed(t, "-s", r.sock, "wait-alert", "-timeout", "120s")

	// All but the last frame: frames 0..n-3 are scored.
	r.feed(t, 1, n-1)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var st control.Status
	for st.FramesScored < uint64(n-2) {
		ffCallTool(t, ctx, ac.cs, "vmaf_status", nil, &st)
		time.Sleep(20 * time.Millisecond)
	}
	var sc control.Scores
	ffCallTool(t, ctx, ac.cs, "vmaf_score", map[string]any{"from": 0, "to": n - 1}, &sc)
	if fullFrom := n - 2 - recent; len(sc.Records) != n-2 || sc.History == nil || sc.History.FullFrom != int64(fullFrom) || sc.History.ScoresOnly != fullFrom {
		t.Fatalf("vmaf_score from 0: %d records, history %+v", len(sc.Records), sc.History)
	}
	for i, rec := range sc.Records {
		// Raw input has no timestamps: pts_ns is -1 in full records too.
		if full := i >= n-2-recent; full != (len(rec.Features) > 0) || rec.Frame != int64(i) {
			t.Errorf("record %d: frame %d, %d features", i, rec.Frame, len(rec.Features))
		}
	}
	var scores []float64
	for _, rec := range sc.Records {
		scores = append(scores, rec.Score)
	}
	runs := lowRuns(scores, alertThreshold, 1)
	if len(runs) < 2 {
		t.Fatalf("want at least 2 drops below %v, scores %v", alertThreshold, scores)
	}
	// Every run gets a begin; every run that recovered, an end.
	var want []control.Alert
	for i, run := range runs {
		want = append(want, control.Alert{ID: uint64(i + 1), State: "begin", FirstFrame: int64(run[0]), LastFrame: int64(run[0])})
		if run[1] < n-3 {
			want = append(want, control.Alert{ID: uint64(i + 1), State: "end", FirstFrame: int64(run[0]), LastFrame: int64(run[1])})
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(ac.got()) < len(want) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	got := ac.got()
	if len(got) != len(want) {
		t.Fatalf("alert notifications %+v, want %+v", got, want)
	}
	for i, a := range got {
		w := want[i]
		if a.ID != w.ID || a.State != w.State || a.FirstFrame != w.FirstFrame || a.LastFrame != w.LastFrame || a.Threshold != alertThreshold || a.Min >= alertThreshold {
			t.Errorf("alert %d = %+v, want %+v", i, a, w)
		}
		if a.State == "end" {
			low := scores[a.FirstFrame : a.LastFrame+1]
			// Scores-only records hold float32 scores (within 4e-6).
			if lo := minOf(low); math.Abs(a.Min-lo) > 4e-6 || a.Frames != len(low) {
				t.Errorf("alert %d: min %v frames %d, scores %v", i, a.Min, a.Frames, low)
			}
		}
	}
	res := <-wait
	if res[0] != "0" || !strings.Contains(res[1], fmt.Sprintf("drop 1 began at frame %d", runs[0][0])) {
		t.Errorf("vmafctl wait-alert: exit %s: %s", res[0], res[1])
	}

	r.feed(t, n-1, n)
	r.finish(t)
	l := ffReadFrames(t, r.out)
	if len(l.Frames) != n {
		t.Fatalf("results file: %d frames, want %d", len(l.Frames), n)
	}
	var all []float64
	for i, f := range l.Frames {
		all = append(all, f.Metrics["vmaf"])
		// The results file prints 6 decimals; the history keeps scores
		// as float32 (within 4e-6 near 100).
		tol := 5e-7 + 1e-12
		if i < n-2-recent {
			tol += 4e-6
		}
		if i < len(scores) && math.Abs(scores[i]-f.Metrics["vmaf"]) > tol {
			t.Errorf("frame %d: vmaf_score gave %v, the results file %v", i, scores[i], f.Metrics["vmaf"])
		}
	}
	var doc struct {
		Alerts []struct {
			First int  `json:"first"`
			Last  int  `json:"last"`
			AtEOS bool `json:"at_eos"`
		} `json:"alerts"`
	}
	data, _ := os.ReadFile(r.out)
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	allRuns := lowRuns(all, alertThreshold, 1)
	if len(doc.Alerts) != len(allRuns) {
		t.Fatalf("results file drops %+v, runs %v", doc.Alerts, allRuns)
	}
	for i, a := range doc.Alerts {
		if a.First != allRuns[i][0] || a.Last != allRuns[i][1] || a.AtEOS != (allRuns[i][1] == n-1) {
			t.Errorf("results file drop %d = %+v, run %v", i, a, allRuns[i])
		}
	}
}

func minOf(xs []float64) float64 {
	m := math.Inf(1)
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

// TestMCPWaitAlertEnds: with a threshold below every score, vmafctl
// wait-alert times out (6) while the stream runs and reports the end of
// the stream (7) when it ends first.
func TestMCPWaitAlertEnds(t *testing.T) {
	r := startAlertRun(t, 50)
	r.feed(t, 0, 4)
	dialAlerts(t, r.sock) // the socket is up
	timeout := vmafctlAsync(t, "-s", r.sock, "wait-alert", "-timeout", "1s")
	if res := <-timeout; res[0] != "6" || !strings.Contains(res[1], "no quality drop within 1s") {
		t.Errorf("wait-alert -timeout 1s: exit %s: %s", res[0], res[1])
	}
	ends := waitAlertArmed(t, "-s", r.sock, "wait-alert", "-timeout", "120s")
	r.feed(t, 4, r.frames())
	r.finish(t)
	if res := <-ends; res[0] != "7" || !strings.Contains(res[1], "without a quality drop") {
		t.Errorf("wait-alert at the end of the stream: exit %s: %s", res[0], res[1])
	}
}
