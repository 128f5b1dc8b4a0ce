package pipelines

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// lowRuns finds the runs of at least n consecutive scores below th.
func lowRuns(scores []float64, th float64, n int) [][2]int {
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

func messagesOfType(run *gsttest.Run, typ string) []gsttest.Message {
	var out []gsttest.Message
	for _, m := range run.Messages {
		if m.Fields["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}

func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestElementWindowsAndAlerts: with window-frames, percentiles and an
// alert threshold between the clip's lowest and highest score, the
// window messages hold the statistics of the frame messages' scores, the
// alert messages begin and end where the frames fall below and recover
// (a drop still open at EOS ends before the EOS), the pooled message has
// the exact percentiles, and the results file has the same windows and
// drops.
func TestElementWindowsAndAlerts(t *testing.T) {
	ref := gsttest.Clip(t, "flower_576x324_ref")
	dist := gsttest.Clip(t, "flower_576x324_x264_crf22")
	// The pair scores 95.3 to 99.1; at 98.6 the drops end before the
	// last frame, at 98.8 with two frames the last one is open at EOS.
	for _, tc := range []struct {
		threshold   float64
		alertFrames int
		openAtEOS   bool
	}{{98.6, 1, false}, {98.8, 2, true}} {
		t.Run(fmt.Sprint(tc.threshold), func(t *testing.T) {
			results := filepath.Join(t.TempDir(), "results.json")
			run := gsttest.Launch(t, 5*time.Minute, fmt.Sprintf("%s ! v.ref_sink %s ! v.dist_sink vmafsink name=v threads=2 "+
				"window-frames=10 window-step=5 percentiles=5,50,99.9 alert-threshold=%v alert-frames=%d results-filename=%s",
				gsttest.RawSource(t, ref), gsttest.RawSource(t, dist), tc.threshold, tc.alertFrames, results))
			run.MustSucceed(t)
			frames := run.Frames()
			if len(frames) != 48 {
				t.Fatalf("%d frame messages", len(frames))
			}
			var scores []float64
			for _, f := range frames {
				scores = append(scores, f.Float(t, "vmaf"))
			}

			windows := messagesOfType(run, "window")
			if len(windows) != 8 {
				t.Fatalf("%d window messages, want 8 (10 frames every 5 of 48)", len(windows))
			}
			for i, w := range windows {
				first := 5 * i
				part := slices.Sorted(slices.Values(scores[first : first+10]))
				mean := 0.0
				for _, v := range part {
					mean += v
				}
				mean /= 10
				if w.Uint(t, "first") != uint64(first) || w.Uint(t, "last") != uint64(first+9) || w.Uint(t, "frames") != 10 ||
					!closeTo(w.Float(t, "min"), part[0]) || !closeTo(w.Float(t, "max"), part[9]) || !closeTo(w.Float(t, "mean"), mean) ||
					w.Float(t, "p50") != analytics.PercentileOf(part, 50) || w.Float(t, "p99.9") != part[9] || w.Fields["model"] != "vmaf" {
					t.Errorf("window %d: %v, frames %v", i, w.Fields, part)
				}
				if start := time.Duration(w.Uint(t, "running-time-start")); (start - time.Duration(first)*time.Second/24).Abs() > time.Millisecond {
					t.Errorf("window %d starts at %v", i, start)
				}
			}

			want := lowRuns(scores, tc.threshold, tc.alertFrames)
			alerts := messagesOfType(run, "alert")
			if len(alerts) != 2*len(want) || len(want) == 0 {
				t.Fatalf("%d alert messages for drops %v of %v", len(alerts), want, scores)
			}
			for i, d := range want {
				begin, end := alerts[2*i], alerts[2*i+1]
				part := scores[d[0] : d[1]+1]
				mean := 0.0
				for _, v := range part {
					mean += v / float64(len(part))
				}
				id := strconv.Itoa(i + 1)
				if begin.Fields["state"] != "begin" || begin.Fields["id"] != id || begin.Uint(t, "first") != uint64(d[0]) ||
					begin.Uint(t, "last") != uint64(d[0]+tc.alertFrames-1) || begin.Fields["at-eos"] != "false" {
					t.Errorf("drop %v begins with %v", d, begin.Fields)
				}
				atEOS := d[1] == len(scores)-1
				if end.Fields["state"] != "end" || end.Fields["id"] != id || end.Uint(t, "first") != uint64(d[0]) ||
					end.Uint(t, "last") != uint64(d[1]) || end.Uint(t, "frames") != uint64(len(part)) ||
					!closeTo(end.Float(t, "min"), slices.Min(part)) || math.Abs(end.Float(t, "mean")-mean) > 1e-9 ||
					end.Float(t, "threshold") != tc.threshold || end.Fields["model"] != "vmaf" || end.Fields["at-eos"] != strconv.FormatBool(atEOS) {
					t.Errorf("drop %v ends with %v", d, end.Fields)
				}
			}
			if last := want[len(want)-1]; (last[1] == len(scores)-1) != tc.openAtEOS {
				t.Fatalf("the test's threshold does not leave a drop open at EOS as meant: %v", want)
			}
			if tc.openAtEOS {
				// The drop open at EOS ends before the EOS is posted.
				endAt := strings.LastIndex(run.Output, "type=(string)alert, state=(string)end")
				eosAt := strings.Index(run.Output, "Got EOS")
				if endAt < 0 || eosAt < 0 || endAt > eosAt {
					t.Errorf("drop end at %d, EOS at %d in the output", endAt, eosAt)
				}
			}

			pooled := run.Pooled(t)
			sorted := slices.Sorted(slices.Values(scores))
			for _, p := range []float64{5, 50, 99.9} {
				key := "vmaf-p" + strconv.FormatFloat(p, 'f', -1, 64)
				if got, want := pooled.Float(t, key), math.Round(analytics.PercentileOf(sorted, p)*1000)/1000; got != want {
					t.Errorf("pooled %s = %v, want %v", key, got, want)
				}
			}

			data, err := os.ReadFile(results)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Pooled  map[string]map[string]float64 `json:"pooled_metrics"`
				Windows []map[string]any              `json:"windows"`
				Alerts  []map[string]any              `json:"alerts"`
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Windows) != len(windows) || len(doc.Alerts) != len(want) || doc.Pooled["vmaf"]["p50"] != pooled.Float(t, "vmaf-p50") {
				t.Errorf("results file: %d windows, %d alerts, p50 %v", len(doc.Windows), len(doc.Alerts), doc.Pooled["vmaf"]["p50"])
			}
			if n := len(doc.Alerts); n > 0 && doc.Alerts[n-1]["at_eos"] != tc.openAtEOS {
				t.Errorf("results file's last drop: %v", doc.Alerts[n-1])
			}
		})
	}
}

// TestElementAnalyticsRefused: a bad combination or value fails the
// start with a settings error that names the property.
func TestElementAnalyticsRefused(t *testing.T) {
	for _, tc := range []struct{ props, want string }{
		{"window-frames=5 window-duration=1000000000", "window-frames and window-duration are exclusive"},
		{"percentiles=5,150", "percentiles"},
		{"window-step=3", "window-step"},
	} {
		run := gsttest.Launch(t, time.Minute, "videotestsrc num-buffers=5 ! "+testSrcCaps+" ! tee name=t t. ! queue ! v.ref_sink "+
			"t. ! queue ! v.dist_sink vmafsink name=v "+tc.props)
		if run.Err == nil || !strings.Contains(run.Output, tc.want) {
			t.Errorf("%s: err %v, want an error naming %q:\n%s", tc.props, run.Err, tc.want, run.Output)
		}
	}
}

// TestElementAnalyticsNewRun: an application that plays its pipeline to
// EOS, sets it to NULL and plays it again gets the same windows and drops
// the second time, numbered from 1 again: the analytics restart with the
// run, as the counters do.
func TestElementAnalyticsNewRun(t *testing.T) {
	const py = "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import gi; gi.require_version('Gst', '1.0')").Run(); err != nil {
		t.Fatal("GStreamer's Python bindings are missing (python3-gi, gir1.2-gstreamer-1.0): scripts/deps.sh installs them")
	}
	// Static pads only (no decodebin), so that the pipeline links again
	// after NULL. The pair scores 95.3 to 99.1, below 98.6 here and there.
	ref := gsttest.Clip(t, "flower_576x324_ref")
	dist := gsttest.Clip(t, "flower_576x324_x264_crf22")
	desc := fmt.Sprintf("%s ! v.ref_sink %s ! v.dist_sink vmafsink name=v threads=2 window-frames=24 percentiles=50 alert-threshold=98.6",
		gsttest.RawSource(t, ref), gsttest.RawSource(t, dist))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, filepath.Join("testdata", "analytics_host.py"), desc)
	cmd.Env = gsttest.Env(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("analytics_host.py: %v\n%s", err, out)
	}
	var runs [2][]gsttest.Message
	for _, line := range strings.Split(string(out), "\n") {
		for i := range runs {
			if strings.HasPrefix(line, fmt.Sprintf("run%d (element): ", i+1)) {
				runs[i] = append(runs[i], gsttest.ParseMessages(line)...)
			}
		}
	}
	summary := func(msgs []gsttest.Message) []string {
		var s []string
		for _, m := range msgs {
			f := m.Fields
			s = append(s, strings.Join([]string{f["type"], f["state"], f["id"], f["first"], f["last"], f["p50"], f["vmaf-p50"]}, " "))
		}
		return s
	}
	first, second := summary(runs[0]), summary(runs[1])
	alerts := 0
	for _, m := range runs[0] {
		if m.Fields["type"] == "alert" {
			alerts++
		}
	}
	// Two windows, drops begun and ended, numbered from 1, one pooled
	// message; the same again.
	if len(first) != 2+alerts+1 || alerts < 2 || alerts%2 != 0 ||
		!slices.ContainsFunc(first, func(s string) bool { return strings.HasPrefix(s, "alert begin 1 ") }) || !slices.Equal(first, second) {
		t.Errorf("first run:\n%s\nsecond run:\n%s\n%s", strings.Join(first, "\n"), strings.Join(second, "\n"), out)
	}
}

// TestElementAnalyticsFlushingSeek: a flushing seek back to the start
// neither restarts nor breaks the windows and drops, as it does not the
// frame indices and counters: they follow the frames in index order
// across it.
func TestElementAnalyticsFlushingSeek(t *testing.T) {
	ref := gsttest.RawSource(t, gsttest.Clip(t, "flower_576x324_ref"))
	dist := gsttest.RawSource(t, gsttest.Clip(t, "flower_576x324_x264_crf22"))
	run := gsttest.SeekRun(t, 2*time.Minute, 20, fmt.Sprintf("%s ! v.ref_sink %s ! v.dist_sink vmafsink name=v threads=2 "+
		"window-frames=10 alert-threshold=98.6", ref, dist))
	if run.Err != nil {
		t.Fatalf("seekrun: %v\n%s", run.Err, run.Output)
	}
	var scores []float64
	for i, m := range run.Frames() {
		if m.Uint(t, "index") != uint64(i) {
			t.Fatalf("frame message %d has index %s", i, m.Fields["index"])
		}
		scores = append(scores, m.Float(t, "vmaf"))
	}
	if len(scores) <= 48 {
		t.Fatalf("%d frames scored: no seek back?", len(scores))
	}
	windows := messagesOfType(run, "window")
	if len(windows) != len(scores)/10 {
		t.Fatalf("%d windows for %d frames", len(windows), len(scores))
	}
	for i, w := range windows {
		mean := 0.0
		for _, v := range scores[10*i : 10*i+10] {
			mean += v / 10
		}
		if w.Uint(t, "first") != uint64(10*i) || w.Uint(t, "last") != uint64(10*i+9) || math.Abs(w.Float(t, "mean")-mean) > 1e-9 {
			t.Errorf("window %d: %v", i, w.Fields)
		}
	}
	var ends []string
	for _, a := range messagesOfType(run, "alert") {
		if a.Fields["state"] == "end" {
			ends = append(ends, a.Fields["id"]+":"+a.Fields["first"]+"-"+a.Fields["last"])
		}
	}
	var want []string
	for i, d := range lowRuns(scores, 98.6, 1) {
		want = append(want, fmt.Sprintf("%d:%d-%d", i+1, d[0], d[1]))
	}
	if !slices.Equal(ends, want) {
		t.Errorf("drops %v, want %v", ends, want)
	}
}
