package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/vmaf"
)

func writeWith(t *testing.T, opts Options, frames []Frame, extra func(w *Writer)) []byte {
	t.Helper()
	var buf bytes.Buffer
	opts.Now = fakeClock(250 * time.Millisecond)
	w := NewWriter(&buf, opts)
	for _, f := range frames {
		if err := w.WriteFrame(f); err != nil {
			t.Fatal(err)
		}
	}
	if extra != nil {
		extra(w)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// scoredFrames are n frames of one model whose scores have six decimals,
// as a document prints them, clustered so that many share a 1/1000 bin
// and some sit on the bins' rounding edges.
func scoredFrames(t *testing.T, n int) []Frame {
	m := builtin(t, "vmaf_v0.6.1")
	rng := rand.New(rand.NewPCG(1, 2))
	var fs []Frame
	for i := range n {
		micro := 60_000_000 + rng.IntN(40_000_000)
		if i%7 == 0 {
			micro = micro/1000*1000 + 500 // exactly half a bin
		}
		fs = append(fs, Frame{Num: i, Models: []*vmaf.Model{m}, Metrics: []Metric{
			{Name: "psnr_y", Value: 30 + float64(i%10)}, {Name: "vmaf", Value: float64(micro) / 1e6}}})
	}
	return fs
}

func TestPercentileKey(t *testing.T) {
	for p, want := range map[float64]string{0: "p0", 1: "p1", 5: "p5", 50: "p50", 99.9: "p99.9", 100: "p100", 0.5: "p0.5"} {
		if got := PercentileKey(p); got != want {
			t.Errorf("PercentileKey(%v) = %q, want %q", p, got, want)
		}
	}
}

// TestPercentilesExact: each pooled percentile is the exact nearest-rank
// percentile of the per-frame scores of the same document, rounded to
// 0.001, and follows libvmaf's keys; other metrics get none.
func TestPercentilesExact(t *testing.T) {
	ps := []float64{0, 1, 5, 10, 50, 99.9, 100}
	for _, n := range []int{1, 2, 7, 30, 1001} {
		doc := writeWith(t, Options{Format: JSON, Percentiles: ps}, scoredFrames(t, n), nil)
		dec := json.NewDecoder(bytes.NewReader(doc))
		dec.UseNumber()
		var parsed struct {
			Frames []struct {
				Metrics map[string]json.Number `json:"metrics"`
			} `json:"frames"`
			Pooled map[string]map[string]json.Number `json:"pooled_metrics"`
		}
		if err := dec.Decode(&parsed); err != nil {
			t.Fatalf("n=%d: %v\n%s", n, err, doc)
		}
		var scores []float64
		for _, f := range parsed.Frames {
			v, err := f.Metrics["vmaf"].Float64()
			if err != nil {
				t.Fatal(err)
			}
			scores = append(scores, v)
		}
		slices.Sort(scores)
		for _, p := range ps {
			want := math.Round(analytics.PercentileOf(scores, p)*1000) / 1000
			got := parsed.Pooled["vmaf"][PercentileKey(p)]
			if string(got) != strconv.FormatFloat(want, 'f', 6, 64) {
				t.Errorf("n=%d p%v: %s, want %.6f", n, p, got, want)
			}
		}
		if len(parsed.Pooled["psnr_y"]) != 4 {
			t.Errorf("n=%d: psnr_y pooled %v, want libvmaf's four keys only", n, parsed.Pooled["psnr_y"])
		}
		// The keys' order: libvmaf's, then the percentiles as asked.
		entry := string(doc[bytes.Index(doc, []byte(`"vmaf": {`)):])
		entry = entry[:strings.Index(entry, "}")]
		last := -1
		for _, k := range []string{"min", "max", "mean", "harmonic_mean", "p0", "p1", "p5", "p10", "p50", "p99.9", "p100"} {
			i := strings.Index(entry, `"`+k+`"`)
			if i <= last {
				t.Fatalf("n=%d: key %q out of order in %s", n, k, entry)
			}
			last = i
		}
	}
}

func TestPercentilesXML(t *testing.T) {
	frames := scoredFrames(t, 40)
	doc := writeWith(t, Options{Format: XML, Percentiles: []float64{5, 99.9}}, frames, nil)
	var parsed struct {
		Pooled []struct {
			Name  string     `xml:"name,attr"`
			Attrs []xml.Attr `xml:",any,attr"`
		} `xml:"pooled_metrics>metric"`
	}
	if err := xml.Unmarshal(doc, &parsed); err != nil {
		t.Fatal(err)
	}
	var scores []float64
	for _, f := range frames {
		scores = append(scores, f.Metrics[1].Value)
	}
	slices.Sort(scores)
	for _, m := range parsed.Pooled {
		var names []string
		for _, a := range m.Attrs {
			names = append(names, a.Name.Local)
			if m.Name == "vmaf" && strings.HasPrefix(a.Name.Local, "p") {
				p, _ := strconv.ParseFloat(a.Name.Local[1:], 64)
				want := strconv.FormatFloat(math.Round(analytics.PercentileOf(scores, p)*1000)/1000, 'f', 6, 64)
				if a.Value != want {
					t.Errorf("%s=%s, want %s", a.Name.Local, a.Value, want)
				}
			}
		}
		want := []string{"min", "max", "mean", "harmonic_mean"}
		if m.Name == "vmaf" {
			want = append(want, "p5", "p99.9")
		}
		if !slices.Equal(names, want) {
			t.Errorf("metric %s: attributes %v, want %v", m.Name, names, want)
		}
	}
}

// TestAnalyticsOffUnchanged: without the options (or where a format has
// no place for them) a document is the one written before they existed.
func TestAnalyticsOffUnchanged(t *testing.T) {
	frames := scoredFrames(t, 12)
	all := Options{Percentiles: []float64{1, 50}, Windows: true, Alerts: true}
	feed := func(w *Writer) {
		w.AddWindow(analytics.Window{First: 0, Last: 5, Frames: 6, Mean: 80})
		w.AddAlert(analytics.Alert{ID: 1, State: analytics.AlertEnd, Threshold: 70})
	}
	for _, f := range []Format{XML, JSON, CSV, Sub} {
		plain := Options{Format: f}
		base := writeWith(t, plain, frames, nil)
		if got := writeWith(t, plain, frames, feed); !bytes.Equal(got, base) {
			t.Errorf("%v: windows and alerts added without the options changed the document", f)
		}
		on := all
		on.Format = f
		got := writeWith(t, on, frames, feed)
		if same := bytes.Equal(got, base); same != (f == CSV || f == Sub) {
			t.Errorf("%v: document with every option the same as without: %v", f, same)
		}
	}
}

// TestWindowsAndAlertsJSON: the sections come after libvmaf's keys, one
// entry per window and per ended drop, with unknown times as null.
func TestWindowsAndAlertsJSON(t *testing.T) {
	frames := scoredFrames(t, 4)
	doc := writeWith(t, Options{Format: JSON, Windows: true, Alerts: true}, frames, func(w *Writer) {
		w.AddWindow(analytics.Window{First: 0, Last: 1, Start: 0, End: 40 * time.Millisecond, Frames: 2, Mean: 80, HarmonicMean: 79.5, Min: 70, Max: 90,
			Percentiles: []analytics.Percentile{{P: 5, Value: 70}}, Model: "vmaf"})
		w.AddWindow(analytics.Window{First: 2, Last: 3, Start: analytics.NoTime, End: analytics.NoTime, Frames: 2, Model: "vmaf"})
		w.AddAlert(analytics.Alert{ID: 1, State: analytics.AlertBegin, First: 2})
		w.AddAlert(analytics.Alert{ID: 1, State: analytics.AlertEnd, First: 2, Last: 3, Start: 80 * time.Millisecond, End: analytics.NoTime,
			Frames: 2, Min: 60, Mean: 65, Threshold: 70, Model: "vmaf", AtEOS: true})
	})
	var parsed struct {
		Windows []map[string]any `json:"windows"`
		Alerts  []map[string]any `json:"alerts"`
	}
	if err := json.Unmarshal(doc, &parsed); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	if len(parsed.Windows) != 2 || len(parsed.Alerts) != 1 {
		t.Fatalf("%d windows, %d alerts:\n%s", len(parsed.Windows), len(parsed.Alerts), doc)
	}
	w0, w1, a := parsed.Windows[0], parsed.Windows[1], parsed.Alerts[0]
	if w0["end"] != 0.04 || w0["p5"] != 70.0 || w0["harmonic_mean"] != 79.5 || w0["frames"] != 2.0 || w1["start"] != nil {
		t.Errorf("windows %v", parsed.Windows)
	}
	if a["id"] != 1.0 || a["first"] != 2.0 || a["last"] != 3.0 || a["start"] != 0.08 || a["end"] != nil || a["min"] != 60.0 ||
		a["threshold"] != 70.0 || a["at_eos"] != true || a["model"] != "vmaf" {
		t.Errorf("alert %v", a)
	}
	s := string(doc)
	if !(strings.Index(s, `"aggregate_metrics"`) < strings.Index(s, `"windows"`) && strings.Index(s, `"windows"`) < strings.Index(s, `"alerts"`)) {
		t.Errorf("sections out of order:\n%s", s)
	}

	empty := writeWith(t, Options{Format: XML, Windows: true, Alerts: true}, frames, nil)
	if !bytes.Contains(empty, []byte("  <windows>\n  </windows>\n  <alerts>\n  </alerts>\n</VMAF>\n")) {
		t.Errorf("XML without any window or drop:\n%s", empty)
	}
}

// TestFileWithWindowsValidAfterEveryCommit: a file keeps its windows and
// drops, added between frames, a valid document after each commit.
func TestFileWithWindowsValidAfterEveryCommit(t *testing.T) {
	for _, f := range []Format{JSON, XML} {
		path := filepath.Join(t.TempDir(), "out."+f.String())
		w, err := Create(path, Options{Format: f, Windows: true, Alerts: true, Percentiles: []float64{50}, Now: fakeClock(time.Millisecond)})
		if err != nil {
			t.Fatal(err)
		}
		for i, fr := range scoredFrames(t, 9) {
			if err := w.WriteFrame(fr); err != nil {
				t.Fatal(err)
			}
			if i%2 == 1 {
				w.AddWindow(analytics.Window{First: i - 1, Last: i, Frames: 2, Start: analytics.NoTime, End: analytics.NoTime, Model: "vmaf"})
				w.AddAlert(analytics.Alert{ID: uint64(i), State: analytics.AlertEnd, First: i, Last: i, Frames: 1, Threshold: 99})
			}
			if err := w.Commit(); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Windows []any `json:"windows" xml:"windows>window"`
				Alerts  []any `json:"alerts" xml:"alerts>alert"`
			}
			if f == JSON {
				err = json.Unmarshal(data, &doc)
			} else {
				err = xml.Unmarshal(data, &doc)
			}
			if err != nil || len(doc.Windows) != (i+1)/2 || len(doc.Alerts) != (i+1)/2 {
				t.Fatalf("%v after frame %d: %v, %d windows, %d alerts\n%s", f, i, err, len(doc.Windows), len(doc.Alerts), data)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
