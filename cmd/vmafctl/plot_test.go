package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/internal/plot"
	"github.com/vmafsink/vmafsink/internal/testclips"
)

// liveScorer is `vmaf-score --mcp-uds SOCK [extra]` scoring the 321x179 golden
// pair, looped through two FIFOs at a live rate until the test ends, or
// until budget frames have gone in: a test raises the budget to say how
// many frames happen between its steps, whatever the machine's speed.
type liveScorer struct {
	sock   string
	stop   chan struct{}
	exited chan error
	stderr bytes.Buffer
	budget atomic.Int64
}

func startLiveScorer(t *testing.T, fps int, extra ...string) *liveScorer {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "vmaf-score")
	if out, err := exec.Command("go", "build", "-o", bin, "../vmaf-score").CombinedOutput(); err != nil {
		t.Fatalf("go build ../vmaf-score: %v\n%s", err, out)
	}
	s := &liveScorer{sock: filepath.Join(dir, "vmaf.sock"), stop: make(chan struct{}), exited: make(chan error, 1)}
	s.budget.Store(math.MaxInt64)
	ref, dist := filepath.Join(dir, "ref.y4m"), filepath.Join(dir, "dist.y4m")
	for _, p := range []string{ref, dist} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, append([]string{"-r", ref, "-d", dist, "-q", "--threads", "1", "--mcp-uds", s.sock}, extra...)...)
	cmd.Stderr = &s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.exited <- cmd.Wait() }()
	done := make(chan struct{}, 2)
	for _, side := range []struct{ fifo, clip string }{{ref, "flower_321x179_ref.y4m"}, {dist, "flower_321x179_x264_crf30.y4m"}} {
		header, frames := y4mFrames(t, dir, side.clip)
		go func() {
			defer func() { done <- struct{}{} }()
			f, err := os.OpenFile(side.fifo, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			defer f.Close()
			if _, err := f.Write(header); err != nil {
				return
			}
			tick := time.NewTicker(time.Second / time.Duration(fps))
			defer tick.Stop()
			for i := 0; ; {
				select {
				case <-s.stop:
					return
				case <-tick.C:
				}
				if int64(i) >= s.budget.Load() {
					continue
				}
				if _, err := f.Write(frames[i%len(frames)]); err != nil {
					return
				}
				i++
			}
		}()
	}
	t.Cleanup(func() {
		// A run left paused in block mode reads no more: the writers
		// see the stop only when their write fails with it gone.
		close(s.stop)
		select {
		case <-s.exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-s.exited
		}
		<-done
		<-done
	})
	return s
}

// y4mFrames decompresses a golden 4:2:0 8-bit clip and splits it into
// its header line and frames (each with its FRAME line).
func y4mFrames(t *testing.T, dir, name string) (header []byte, frames [][]byte) {
	t.Helper()
	p, compressed, err := testclips.Find("../..", filepath.Join("clips", name))
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	if compressed {
		data, err = exec.Command("xz", "-dc", p).Output()
	} else {
		data, err = os.ReadFile(p)
	}
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	nl := bytes.IndexByte(data, '\n')
	header = data[:nl+1]
	var w, h int
	for _, f := range strings.Fields(string(header)) {
		switch f[0] {
		case 'W':
			w, _ = strconv.Atoi(f[1:])
		case 'H':
			h, _ = strconv.Atoi(f[1:])
		}
	}
	size := len("FRAME\n") + w*h + 2*((w+1)/2)*((h+1)/2)
	body := data[nl+1:]
	if w == 0 || h == 0 || len(body)%size != 0 {
		t.Fatalf("%s: not whole %dx%d 4:2:0 frames", name, w, h)
	}
	for len(body) > 0 {
		frames, body = append(frames, body[:size]), body[size:]
	}
	return header, frames
}

// status polls vmafctl status until cond holds.
func (s *liveScorer) status(t *testing.T, what string, cond func(control.Status) bool) control.Status {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		code, out, _ := vmafctl(t, "-s", s.sock, "-timeout", "5s", "status", "-json")
		var st control.Status
		if code == exitOK && json.Unmarshal([]byte(out), &st) == nil && cond(st) {
			return st
		}
		select {
		case err := <-s.exited:
			t.Fatalf("vmaf-score exited (%v) waiting for %s: %s", err, what, s.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s (last status %s)", what, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestPlotLive: vmafctl plot draws every frame a running vmaf-score has
// scored, more than the full records it keeps, from its score history:
// the model an agent swapped in as a line of its own, the swap and the
// pause in effect marked, the alert threshold drawn and each drop the
// alerts resource lists shaded, and the worst of the frames drawn
// labelled.
func TestPlotLive(t *testing.T) {
	// Frame 6 of the 8 the pair loops scores 83.5: a drop each loop. The
	// frames come in budgets, so the count of drops (at most the 100 the
	// alerts resource lists) does not depend on how fast the steps go.
	s := startLiveScorer(t, 100, "--alert-threshold", "83.8", "--alert-frames", "1")
	s.budget.Store(310)
	// More than the 256 full records the control plane keeps.
	s.status(t, "300 frames scored", func(st control.Status) bool { return st.FramesScored >= 300 })
	if code, out, e := vmafctl(t, "-s", s.sock, "swap", "vmaf_v0.6.1neg"); code != exitOK {
		t.Fatalf("swap: exit %d: %s%s", code, out, e)
	}
	s.budget.Add(30)
	st := s.status(t, "10 frames by the new model", func(st control.Status) bool {
		return len(st.Swaps) == 1 && st.Swaps[0].FirstFrame >= 0 && st.LastFrame >= st.Swaps[0].FirstFrame+10
	})
	if code, out, e := vmafctl(t, "-s", s.sock, "pause"); code != exitOK {
		t.Fatalf("pause: exit %d: %s%s", code, out, e)
	}
	s.budget.Add(10)
	st = s.status(t, "paused", func(st control.Status) bool { return st.State == control.StatePaused })
	from, to := st.Swaps[0].From, st.Swaps[0].To
	al := liveAlerts(t, s.sock)
	if al.Threshold != 83.8 || len(al.Alerts) < 10 || len(al.Alerts) >= maxAlertsListed {
		t.Fatalf("alerts: threshold %v, %d drops", al.Threshold, len(al.Alerts))
	}

	dir := t.TempDir()
	svg := filepath.Join(dir, "live.svg")
	code, out, e := vmafctl(t, "-s", s.sock, "plot", "-o", svg)
	if code != exitOK {
		t.Fatalf("plot: exit %d: %s%s", code, out, e)
	}
	if want := fmt.Sprintf("frames 0 to %d (%d records, %d drops)", st.LastFrame, st.FramesScored, len(al.Alerts)); !strings.Contains(out, want) {
		t.Errorf("plot printed %q, want %q", out, want)
	}
	doc := readFile(t, svg)
	for _, w := range []string{">" + from + "<", ">" + to + "<", ">→ " + to + "<", ">paused<",
		fmt.Sprintf("(frames 0 to %d)", st.LastFrame), ">alert threshold 83.8<"} {
		if !strings.Contains(doc, w) {
			t.Errorf("plot lacks %q", w)
		}
	}
	// The history names the first model by its key, vmaf: its frames
	// join the full records' line rather than make a line of their own.
	if strings.Contains(doc, ">vmaf<") {
		t.Error("plot has a line for the history's key vmaf besides " + from)
	}
	// dropShade's alpha, 45/255, is the fill opacity of the drops only.
	if n := strings.Count(doc, "fill-opacity:0.176"); n != len(al.Alerts) {
		t.Errorf("%d drops shaded, want %d", n, len(al.Alerts))
	}

	// The last N, reaching back past the full records into the history.
	if code, out, e := vmafctl(t, "-s", s.sock, "plot", "-o", filepath.Join(dir, "300.svg"), "-n", "300"); code != exitOK ||
		!strings.Contains(out, fmt.Sprintf("frames %d to %d (300 records", st.LastFrame-299, st.LastFrame)) {
		t.Fatalf("plot -n 300: exit %d: %s%s", code, out, e)
	}

	// The last 12: the worst labelled are among them.
	var sc control.Scores
	code, out, e = vmafctl(t, "-s", s.sock, "score", "-n", "12", "-json")
	if code != exitOK || json.Unmarshal([]byte(out), &sc) != nil || len(sc.Records) != 12 {
		t.Fatalf("score -n 12: exit %d: %s%s", code, out, e)
	}
	pngPath := filepath.Join(dir, "last.png")
	if code, out, e := vmafctl(t, "-s", s.sock, "plot", "-o", pngPath, "-n", "12"); code != exitOK || !strings.Contains(out, "(12 records") {
		t.Fatalf("plot -n 12: exit %d: %s%s", code, out, e)
	}
	img, err := png.Decode(bytes.NewReader([]byte(readFile(t, pngPath))))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 960 || b.Dy() != 432 {
		t.Errorf("PNG %dx%d", b.Dx(), b.Dy())
	}
	svg12 := filepath.Join(dir, "last.svg")
	if code, out, e := vmafctl(t, "-s", s.sock, "plot", "-o", svg12, "-n", "12", "-worst", "3"); code != exitOK {
		t.Fatalf("plot -n 12: exit %d: %s%s", code, out, e)
	}
	doc = readFile(t, svg12)
	for _, r := range lowest(sc.Records, 3) {
		if w := plot.WorstLabel(int(r.Frame), r.Score); !strings.Contains(doc, w) {
			t.Errorf("plot -n 12 lacks the worst frame's label %q", w)
		}
	}
	s.budget.Store(math.MaxInt64) // the resume applies at a frame
	if code, out, e := vmafctl(t, "-s", s.sock, "resume", "-wait"); code != exitOK {
		t.Fatalf("resume: exit %d: %s%s", code, out, e)
	}
}

// liveAlerts reads the vmaf://alerts resource.
func liveAlerts(t *testing.T, sock string) control.Alerts {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sess, err := connect(ctx, globals{socket: sock, serverUID: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.close()
	var al control.Alerts
	if err := readJSON(ctx, sess, alertsURI, &al); err != nil {
		t.Fatal(err)
	}
	return al
}

// lowest returns the n lowest-scoring records, the earlier first among
// equals (the paused run scores no frame between the two calls).
func lowest(recs []control.Record, n int) []control.Record {
	rs := append([]control.Record(nil), recs...)
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			if rs[j].Score < rs[i].Score || (rs[j].Score == rs[i].Score && rs[j].Frame < rs[i].Frame) {
				rs[i], rs[j] = rs[j], rs[i]
			}
		}
	}
	return rs[:n]
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPlotRefused: a plot of another format, without -o, or of a
// negative count of frames, is a usage error before any connection.
func TestPlotRefused(t *testing.T) {
	cases := [][]string{
		{"plot"},
		{"plot", "-o", "x.pdf"},
		{"plot", "-o", "x"},
		{"plot", "-o", "x.svg", "-n", "-1"},
		{"plot", "-o", "x.svg", "-worst", "-2"},
	}
	for _, args := range cases {
		code, _, e := vmafctl(t, append([]string{"-s", filepath.Join(t.TempDir(), "none")}, args...)...)
		if code != exitUsage || !strings.Contains(e, "plot") {
			t.Errorf("%v: exit %d, %q", args, code, e)
		}
	}
}

// TestPlotNoFrames: before the first frame there is nothing to draw, and
// no file is written.
func TestPlotNoFrames(t *testing.T) {
	_, sock := serve(t)
	p := filepath.Join(t.TempDir(), "x.svg")
	if code, _, e := vmafctl(t, "-s", sock, "plot", "-o", p); code != exitError || !strings.Contains(e, "no frame") {
		t.Errorf("exit %d, %q", code, e)
	}
	if _, err := os.Stat(p); err == nil {
		t.Error("wrote a file")
	}
}

// TestLiveData: records become a line per model, the other configured
// models' scores read from the features; the history's scores-only
// records join their model's line; a model change is a
// swap, a gap frames not scored, a paused status a pause at the end; the
// threshold is drawn and the drops over the frames shaded, cut to them.
func TestLiveData(t *testing.T) {
	rec := func(frame int64, model string, score, neg float64) control.Record {
		return control.Record{Frame: frame, Model: model, Score: score,
			Features: map[string]float64{"vmaf_neg": neg, "integer_adm2": 0.99}}
	}
	scoreOnly := func(frame int64, model string, score float64) control.Record {
		return control.Record{Frame: frame, Model: model, Score: score, PTS: -1}
	}
	recs := []control.Record{
		scoreOnly(5, "vmaf_v0.6.1", 80), scoreOnly(6, "vmaf_v0.6.1", 81), // the history's: no features
		rec(10, "vmaf_v0.6.1", 90, 88), rec(11, "vmaf_v0.6.1", 91, 89), // 7 to 9 not scored
		rec(14, "vmaf_v0.6.1", 92, 90), // 12 and 13 not scored
		rec(15, "vmaf_4k", 95, 93), rec(16, "vmaf_4k", 96, 94),
	}
	st := control.Status{State: control.StatePaused, Models: []string{"vmaf_4k", "vmaf_neg"},
		Swaps: []control.SwapEvent{{FirstFrame: 15, From: "vmaf_v0.6.1", To: "vmaf_4k"}, {FirstFrame: 3, To: "old"}}}
	al := control.Alerts{Threshold: 85, AlertFrames: 1,
		Alerts: []control.Alert{{ID: 1, FirstFrame: 0, LastFrame: 6}, {ID: 2, FirstFrame: 20, LastFrame: 21}, {ID: 3, FirstFrame: 16, LastFrame: 18}},
		Active: &control.Alert{ID: 3, FirstFrame: 16, LastFrame: 18}}
	d, older := liveData(recs, st, al)
	type line struct {
		name   string
		frames []int
	}
	var got []line
	for _, s := range d.Series {
		got = append(got, line{s.Name, s.Frames})
	}
	want := []line{{"vmaf_v0.6.1", []int{5, 6, 10, 11, 14}}, {"vmaf_neg", []int{10, 11, 14, 15, 16}}, {"vmaf_4k", []int{15, 16}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("series %v, want %v", got, want)
	}
	if fmt.Sprint(d.Swaps) != fmt.Sprint([]plot.Swap{{Frame: 15, To: "vmaf_4k"}}) {
		t.Errorf("swaps %v", d.Swaps)
	}
	if fmt.Sprint(d.Pauses) != fmt.Sprint([]plot.Pause{{From: 7, To: 10, Label: "not scored"}, {From: 12, To: 14, Label: "not scored"}, {From: 17, To: -1}}) {
		t.Errorf("pauses %v", d.Pauses)
	}
	if d.Threshold != 85 || fmt.Sprint(d.Drops) != fmt.Sprint([]plot.Drop{{First: 5, Last: 6}, {First: 16, Last: 16}}) || older != -1 {
		t.Errorf("threshold %v, drops %v, older %d", d.Threshold, d.Drops, older)
	}
}

// TestDropsOlder: with as many drops as the alerts resource lists, the
// plot says before which frame drops may be missing.
func TestDropsOlder(t *testing.T) {
	var al control.Alerts
	al.Threshold = 50
	for i := range maxAlertsListed {
		f := int64(100 + 2*i)
		al.Alerts = append(al.Alerts, control.Alert{ID: uint64(i + 1), FirstFrame: f, LastFrame: f})
	}
	recs := []control.Record{{Frame: 0, Model: "m", Score: 40}, {Frame: 400, Model: "m", Score: 40}}
	d, older := liveData(recs, control.Status{}, al)
	if older != 100 || len(d.Drops) != maxAlertsListed {
		t.Errorf("older %d, %d drops", older, len(d.Drops))
	}
}
