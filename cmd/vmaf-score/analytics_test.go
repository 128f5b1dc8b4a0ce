package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/report"
)

// liveLog is a JSON output with the analytics' sections.
type liveLog struct {
	Frames []struct {
		FrameNum int                    `json:"frameNum"`
		Metrics  map[string]json.Number `json:"metrics"`
	} `json:"frames"`
	Pooled  map[string]map[string]json.Number `json:"pooled_metrics"`
	Windows []struct {
		First, Last, Frames          int
		Start, End                   *float64
		Model                        string
		Min, Max, Mean, HarmonicMean float64
		P50                          *float64 `json:"p50"`
	} `json:"windows"`
	Alerts []struct {
		ID, First, Last, Frames int
		Start, End              *float64
		Model                   string
		Min, Mean, Threshold    float64
		AtEOS                   bool `json:"at_eos"`
	} `json:"alerts"`
}

func readLiveLog(t *testing.T, path string) (*liveLog, []float64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var l liveLog
	if err := dec.Decode(&l); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	// Harmonic means are "harmonic_mean" in the file.
	var raw struct {
		Windows []map[string]any `json:"windows"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for i, w := range raw.Windows {
		l.Windows[i].HarmonicMean = w["harmonic_mean"].(float64)
	}
	var scores []float64
	for i, f := range l.Frames {
		if f.FrameNum != i {
			t.Fatalf("frame %d numbered %d", i, f.FrameNum)
		}
		v, err := f.Metrics["vmaf"].Float64()
		if err != nil {
			t.Fatal(err)
		}
		scores = append(scores, v)
	}
	return &l, scores
}

// drops finds the runs of at least n consecutive scores below th.
func drops(scores []float64, th float64, n int) [][2]int {
	var out [][2]int
	for i := 0; i < len(scores); {
		if scores[i] >= th {
			i++
			continue
		}
		j := i
		for j < len(scores) && scores[j] < th {
			j++
		}
		if j-i >= n {
			out = append(out, [2]int{i, j - 1})
		}
		i = j
	}
	return out
}

// TestLiveAnalyticsGoldenPair: the windows cover the frames with their
// statistics, the drops are the runs of low frames of the same file
// (one open at the end ends there), each begins and ends on stderr, the
// pooled percentiles are exact, and the exit status is 0.
func TestLiveAnalyticsGoldenPair(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	// The pair's scores are 82.8 to 84.9; 84.6 leaves 1, 2, 4 and 6-8
	// of them above.
	for _, tc := range []struct {
		threshold   float64
		alertFrames int
	}{{84.6, 1}, {84.6, 2}, {84.5, 1}, {80, 1}} {
		out := filepath.Join(t.TempDir(), "out.json")
		res := vmafScore(t, "-r", ref, "-d", dist, "--json", "-o", out, "--pool-percentiles", "1,50,99.9",
			"--window-frames", "4", "--alert-threshold", strconv.FormatFloat(tc.threshold, 'f', -1, 64),
			"--alert-frames", strconv.Itoa(tc.alertFrames))
		if res.code != 0 {
			t.Fatalf("exit %d: %s", res.code, res.stderr)
		}
		l, scores := readLiveLog(t, out)
		if len(scores) != 8 {
			t.Fatalf("%d frames", len(scores))
		}

		// Tumbling windows of 4: frames 0-3 and 4-7, 24 fps.
		if len(l.Windows) != 2 {
			t.Fatalf("%d windows, want 2", len(l.Windows))
		}
		for i, w := range l.Windows {
			part := scores[4*i : 4*i+4]
			sorted := slices.Sorted(slices.Values(part))
			mean, isum := 0.0, 0.0
			for _, v := range part {
				mean += v / 4
				isum += 1 / (v + 1)
			}
			if w.First != 4*i || w.Last != 4*i+3 || w.Frames != 4 || w.Model != "vmaf" ||
				!near(w.Min, sorted[0]) || !near(w.Max, sorted[3]) || !near(w.Mean, mean) || !near(w.HarmonicMean, 4/isum-1) ||
				w.P50 == nil || !near(*w.P50, analytics.PercentileOf(sorted, 50)) {
				t.Errorf("window %d: %+v, frames %v", i, w, part)
			}
			if w.Start == nil || w.End == nil || !near(*w.Start, float64(4*i)/24) || !near(*w.End, float64(4*i+3)/24) {
				t.Errorf("window %d: times %v %v", i, *w.Start, *w.End)
			}
		}

		want := drops(scores, tc.threshold, tc.alertFrames)
		if len(l.Alerts) != len(want) {
			t.Fatalf("threshold %v x%d: alerts %+v, want drops %v of %v", tc.threshold, tc.alertFrames, l.Alerts, want, scores)
		}
		var lines []string
		for i, a := range l.Alerts {
			d := want[i]
			part := scores[d[0] : d[1]+1]
			mean := 0.0
			for _, v := range part {
				mean += v / float64(len(part))
			}
			if a.ID != i+1 || a.First != d[0] || a.Last != d[1] || a.Frames != len(part) || !near(a.Min, slices.Min(part)) ||
				!near(a.Mean, mean) || a.Threshold != tc.threshold || a.Model != "vmaf" || a.AtEOS != (d[1] == 7) {
				t.Errorf("alert %d: %+v, want frames %v of %v", i, a, d, scores)
			}
			lines = append(lines, "vmaf-score: alert "+strconv.Itoa(a.ID)+" begin: ", "vmaf-score: alert "+strconv.Itoa(a.ID)+" end: ")
		}
		got := strings.Split(strings.TrimSuffix(res.stderr, "\n"), "\n")
		if res.stderr == "" {
			got = nil
		}
		if len(got) != len(lines) {
			t.Fatalf("stderr %q, want %d alert lines", res.stderr, len(lines))
		}
		for i, g := range got {
			if !strings.HasPrefix(g, lines[i]) {
				t.Errorf("stderr line %d %q, want %q...", i, g, lines[i])
			}
		}
		if n := len(want); n > 0 && (want[n-1][1] == 7) != strings.HasSuffix(got[len(got)-1], "at the end of the stream") {
			t.Errorf("last line %q", got[len(got)-1])
		}

		sorted := slices.Sorted(slices.Values(scores))
		for _, p := range []float64{1, 50, 99.9} {
			v := l.Pooled["vmaf"][report.PercentileKey(p)]
			if want := strconv.FormatFloat(math.Round(analytics.PercentileOf(sorted, p)*1000)/1000, 'f', 6, 64); string(v) != want {
				t.Errorf("pooled %s %s, want %s", report.PercentileKey(p), v, want)
			}
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 2e-6 }

// TestLiveAnalyticsQuietAndXML: -q keeps the alerts off stderr; XML
// carries the sections as elements; the options change nothing else.
func TestLiveAnalyticsQuietAndXML(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	dir := t.TempDir()
	plain, live := filepath.Join(dir, "plain.xml"), filepath.Join(dir, "live.xml")
	if res := vmafScore(t, "-q", "-r", ref, "-d", dist, "-o", plain); res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	res := vmafScore(t, "-q", "-r", ref, "-d", dist, "-o", live, "--window-duration", "0.2", "--alert-threshold", "84.6")
	if res.code != 0 || res.stderr != "" {
		t.Fatalf("exit %d, stderr %q", res.code, res.stderr)
	}
	a, _ := os.ReadFile(plain)
	b, _ := os.ReadFile(live)
	// 0.2 s at 24 fps: frames 0-4; the rest makes no whole window.
	if !bytes.Contains(b, []byte(`<window first="0" last="4" start="0.000000" end="0.166667" frames="5" model="vmaf"`)) ||
		!bytes.Contains(b, []byte(`<alert id="1" first="0" last="0" `)) || !bytes.Contains(b, []byte(`at_eos="true" />`)) {
		t.Errorf("XML:\n%s", b)
	}
	// Apart from the sections (and the processing rate), the same.
	cut := func(doc []byte) string {
		s := string(doc)
		if i := strings.Index(s, "  <windows>"); i >= 0 {
			s = s[:i] + "</VMAF>\n"
		}
		i := strings.Index(s, "<fyi")
		j := strings.Index(s[i:], "/>")
		return s[:i] + s[i+j:]
	}
	if cut(a) != cut(b) {
		t.Errorf("documents differ beyond the sections:\n%s\n%s", a, b)
	}
}

func TestLiveAnalyticsRefused(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--window-frames", "4", "--window-duration", "1s"}, "exclusive"},
		{[]string{"--pool-percentiles", "5,150"}, "--pool-percentiles"},
		{[]string{"--pool-percentiles", "five"}, "--pool-percentiles"},
		{[]string{"--window-duration", "-2s"}, "--window-duration"},
		{[]string{"--window-duration", "soon"}, "--window-duration"},
		{[]string{"--window-step", "2"}, "--window-step needs --window-frames"},
		{[]string{"--alert-frames", "3"}, "--alert-frames needs --alert-threshold"},
		{[]string{"--alert-threshold", "0"}, "--alert-threshold"},
		{[]string{"--alert-threshold", "101"}, "--alert-threshold"},
		{[]string{"--alert-threshold", "80", "-n"}, "--no_prediction"},
	} {
		res := vmafScore(t, append([]string{"-r", ref, "-d", dist}, tc.args...)...)
		if res.code != exitUsage || !strings.Contains(res.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, res.code, res.stderr, exitUsage, tc.want)
		}
	}
}

func TestParseWindowDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"2": 2 * time.Second, "0.5": 500 * time.Millisecond, "500ms": 500 * time.Millisecond, "1m30s": 90 * time.Second} {
		if got, err := parseWindowDuration(in); err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", in, got, err, want)
		}
	}
}

// TestPlotThreshold: --plot draws the threshold and shades the drops.
func TestPlotThreshold(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	svg := filepath.Join(t.TempDir(), "p.svg")
	if res := vmafScore(t, "-q", "-r", ref, "-d", dist, "--plot", svg, "--alert-threshold", "84.6"); res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("alert threshold 84.6")) {
		t.Errorf("no threshold in the plot")
	}
	// The drops' shade (dropShade) is drawn once per drop.
	if n := bytes.Count(data, []byte("fill-opacity:0.176")); n < 2 {
		t.Errorf("%d shaded areas, want the drops'", n)
	}
}

// TestLiveAnalyticsRunnerPath: through the Runner (--mcp-uds) the windows
// and drops are the Runner's Monitor's, which the control plane reads,
// and the same as the engine's path.
func TestLiveAnalyticsRunnerPath(t *testing.T) {
	plane := recordControl(t)

	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	dir := t.TempDir()
	live := []string{"-r", ref, "-d", dist, "--json", "--window-frames", "3", "--window-step", "2", "--alert-threshold", "84.6", "--alert-frames", "2"}
	engine, runner := filepath.Join(dir, "e.json"), filepath.Join(dir, "r.json")
	if res := vmafScore(t, append(live, "-o", engine)...); res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	res := vmafScore(t, append(live, "-o", runner, "--mcp-uds", filepath.Join(dir, "s"))...)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	e, _ := readLiveLog(t, engine)
	r, _ := readLiveLog(t, runner)
	if len(e.Windows) != 3 || len(e.Alerts) != 1 || !reflect.DeepEqual(e.Windows, r.Windows) || !reflect.DeepEqual(e.Alerts, r.Alerts) {
		t.Errorf("engine: %+v %+v\nrunner: %+v %+v", e.Windows, e.Alerts, r.Windows, r.Alerts)
	}
	mon := plane.runner.Analytics()
	if a := mon.Alerts(10); mon.Scored() != 8 || len(a) != 1 || a[0].State != analytics.AlertEnd || !a[0].AtEOS {
		t.Errorf("the Runner's monitor: %d scored, alerts %+v", mon.Scored(), a)
	}
}

// TestProgressShowsOpenDrop: the progress line names the drop open now,
// and nothing once it has ended.
func TestProgressShowsOpenDrop(t *testing.T) {
	mon, err := analytics.New(analytics.Config{AlertThreshold: 90, AlertFrames: 2})
	if err != nil {
		t.Fatal(err)
	}
	lr := &liveRun{mon: mon, own: true, end: analytics.NoTime}
	p := newProgress(io.Discard, 10)
	p.note = lr.activeAlert
	at := p.start.Add(time.Second)
	for i, score := range []float64{95, 80, 85, 92} {
		lr.add(i, "vmaf", score)
		line := p.line(i+1, at)
		if open := i == 2; strings.Contains(line, "ALERT 1: 80.000 min since frame 1") != open {
			t.Errorf("after frame %d (%v): %q", i, score, line)
		}
	}
}
