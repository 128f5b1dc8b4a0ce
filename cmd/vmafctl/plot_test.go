package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/internal/plot"
	"github.com/vmafsink/vmafsink/internal/testclips"
)

// liveScorer is `vmaf-score --mcp-uds SOCK` scoring the 321x179 golden
// pair, looped through two FIFOs at a live rate until the test ends.
type liveScorer struct {
	sock   string
	stop   chan struct{}
	exited chan error
	stderr bytes.Buffer
}

func startLiveScorer(t *testing.T, fps int) *liveScorer {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "vmaf-score")
	if out, err := exec.Command("go", "build", "-o", bin, "../vmaf-score").CombinedOutput(); err != nil {
		t.Fatalf("go build ../vmaf-score: %v\n%s", err, out)
	}
	s := &liveScorer{sock: filepath.Join(dir, "vmaf.sock"), stop: make(chan struct{}), exited: make(chan error, 1)}
	ref, dist := filepath.Join(dir, "ref.y4m"), filepath.Join(dir, "dist.y4m")
	for _, p := range []string{ref, dist} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "-r", ref, "-d", dist, "-q", "--threads", "1", "--mcp-uds", s.sock)
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
			for i := 0; ; i++ {
				select {
				case <-s.stop:
					return
				case <-tick.C:
				}
				if _, err := f.Write(frames[i%len(frames)]); err != nil {
					return
				}
			}
		}()
	}
	t.Cleanup(func() {
		close(s.stop)
		<-done
		<-done
		select {
		case <-s.exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-s.exited
		}
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

// TestPlotLive: vmafctl plot draws a running vmaf-score's kept frames,
// with the model an agent swapped in as a line of its own, the swap and
// the pause in effect marked, and the worst of the frames drawn labelled.
func TestPlotLive(t *testing.T) {
	s := startLiveScorer(t, 100)
	s.status(t, "20 frames scored", func(st control.Status) bool { return st.FramesScored >= 20 })
	if code, out, e := vmafctl(t, "-s", s.sock, "swap", "vmaf_v0.6.1neg", "-wait"); code != exitOK {
		t.Fatalf("swap: exit %d: %s%s", code, out, e)
	}
	st := s.status(t, "10 frames by the new model", func(st control.Status) bool {
		return len(st.Swaps) == 1 && st.Swaps[0].FirstFrame >= 0 && st.LastFrame >= st.Swaps[0].FirstFrame+10
	})
	if code, out, e := vmafctl(t, "-s", s.sock, "pause", "-wait"); code != exitOK {
		t.Fatalf("pause: exit %d: %s%s", code, out, e)
	}
	st = s.status(t, "paused", func(st control.Status) bool { return st.State == control.StatePaused })
	from, to := st.Swaps[0].From, st.Swaps[0].To

	dir := t.TempDir()
	svg := filepath.Join(dir, "live.svg")
	code, out, e := vmafctl(t, "-s", s.sock, "plot", "-o", svg)
	if code != exitOK {
		t.Fatalf("plot: exit %d: %s%s", code, out, e)
	}
	kept := min(int(st.FramesScored), 256)
	if want := fmt.Sprintf("frames %d to %d (%d records)", st.LastFrame-int64(kept)+1, st.LastFrame, kept); !strings.Contains(out, want) {
		t.Errorf("plot printed %q, want %q", out, want)
	}
	doc := readFile(t, svg)
	for _, w := range []string{">" + from + "<", ">" + to + "<", ">→ " + to + "<", ">paused<", fmt.Sprintf("(last %d frames kept)", kept)} {
		if !strings.Contains(doc, w) {
			t.Errorf("plot lacks %q", w)
		}
	}

	// The last N: the worst labelled are among them.
	var sc control.Scores
	code, out, e = vmafctl(t, "-s", s.sock, "score", "-n", "12", "-json")
	if code != exitOK || json.Unmarshal([]byte(out), &sc) != nil || len(sc.Records) != 12 {
		t.Fatalf("score -n 12: exit %d: %s%s", code, out, e)
	}
	pngPath := filepath.Join(dir, "last.png")
	if code, out, e := vmafctl(t, "-s", s.sock, "plot", "-o", pngPath, "-n", "12"); code != exitOK || !strings.Contains(out, "(12 records)") {
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
	if code, out, e := vmafctl(t, "-s", s.sock, "resume", "-wait"); code != exitOK {
		t.Fatalf("resume: exit %d: %s%s", code, out, e)
	}
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

// TestPlotRefused: a plot of another format, without -o, or of more
// frames than a reply holds, is a usage error before any connection.
func TestPlotRefused(t *testing.T) {
	cases := [][]string{
		{"plot"},
		{"plot", "-o", "x.pdf"},
		{"plot", "-o", "x"},
		{"plot", "-o", "x.svg", "-n", "-1"},
		{"plot", "-o", "x.svg", "-n", "1001"},
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
// models' scores read from the features; a model change is a swap, a gap
// frames not scored, a paused status a pause at the end.
func TestLiveData(t *testing.T) {
	rec := func(frame int64, model string, score, neg float64) control.Record {
		return control.Record{Frame: frame, Model: model, Score: score,
			Features: map[string]float64{"vmaf_neg": neg, "integer_adm2": 0.99}}
	}
	recs := []control.Record{
		rec(10, "vmaf_v0.6.1", 90, 88), rec(11, "vmaf_v0.6.1", 91, 89),
		rec(14, "vmaf_v0.6.1", 92, 90), // 12 and 13 not scored
		rec(15, "vmaf_4k", 95, 93), rec(16, "vmaf_4k", 96, 94),
	}
	st := control.Status{State: control.StatePaused, Models: []string{"vmaf_4k", "vmaf_neg"},
		Swaps: []control.SwapEvent{{FirstFrame: 15, To: "vmaf_4k"}, {FirstFrame: 3, To: "old"}}}
	d := liveData(recs, st)
	type line struct {
		name   string
		frames []int
	}
	var got []line
	for _, s := range d.Series {
		got = append(got, line{s.Name, s.Frames})
	}
	want := []line{{"vmaf_v0.6.1", []int{10, 11, 14}}, {"vmaf_neg", []int{10, 11, 14, 15, 16}}, {"vmaf_4k", []int{15, 16}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("series %v, want %v", got, want)
	}
	if fmt.Sprint(d.Swaps) != fmt.Sprint([]plot.Swap{{Frame: 15, To: "vmaf_4k"}}) {
		t.Errorf("swaps %v", d.Swaps)
	}
	if fmt.Sprint(d.Pauses) != fmt.Sprint([]plot.Pause{{From: 12, To: 14, Label: "not scored"}, {From: 17, To: -1}}) {
		t.Errorf("pauses %v", d.Pauses)
	}
}
