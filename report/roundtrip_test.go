package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/internal/testclips"
)

// libvmafJSON is libvmaf's JSON log as parsers read it.
type libvmafJSON struct {
	Version string   `json:"version"`
	FPS     *float64 `json:"fps"`
	Frames  []struct {
		FrameNum int                `json:"frameNum"`
		Model    string             `json:"model"`
		Metrics  map[string]float64 `json:"metrics"`
	} `json:"frames"`
	Pooled    map[string]map[string]float64 `json:"pooled_metrics"`
	Aggregate map[string]float64            `json:"aggregate_metrics"`
}

// libvmafXML is libvmaf's XML log; metrics are attributes of <frame>.
type libvmafXML struct {
	Version string `xml:"version,attr"`
	Params  struct {
		Width  int `xml:"qualityWidth,attr"`
		Height int `xml:"qualityHeight,attr"`
	} `xml:"params"`
	FYI struct {
		FPS float64 `xml:"fps,attr"`
	} `xml:"fyi"`
	Frames []struct {
		Attrs []xml.Attr `xml:",any,attr"`
	} `xml:"frames>frame"`
	Pooled []struct {
		Name         string  `xml:"name,attr"`
		Min          float64 `xml:"min,attr"`
		Max          float64 `xml:"max,attr"`
		Mean         float64 `xml:"mean,attr"`
		HarmonicMean float64 `xml:"harmonic_mean,attr"`
	} `xml:"pooled_metrics>metric"`
}

// testFrames makes n frames of varied metrics, every third naming a model.
func testFrames(n int) []Frame {
	frames := make([]Frame, n)
	for i := range frames {
		x := float64(i)
		frames[i] = Frame{Num: i, Metrics: []Metric{
			{Name: "integer_adm2", Value: 0.9 + 0.001*x},
			{Name: "integer_motion2", Value: 3 * math.Sin(x)},
			{Name: "psnr_y", Value: 30 + x/7},
			{Name: "vmaf", Value: 70 + 10*math.Cos(x/3)},
		}}
		if i%3 == 0 {
			frames[i].Model = "vmaf_v0.6.1neg"
		}
	}
	return frames
}

// pooledOf computes what the pooled section must hold, independently of
// the writer.
func pooledOf(frames []Frame, name string) (min, max, mean, hmean float64) {
	min, max = math.Inf(1), math.Inf(-1)
	var sum, isum float64
	for _, f := range frames {
		for _, m := range f.Metrics {
			if m.Name == name {
				min, max = math.Min(min, m.Value), math.Max(max, m.Value)
				sum += m.Value
				isum += 1 / (m.Value + 1)
			}
		}
	}
	n := float64(len(frames))
	return min, max, sum / n, n/isum - 1
}

func writeAll(t *testing.T, format Format, frames []Frame) []byte {
	t.Helper()
	var out bytes.Buffer
	w := NewWriter(&out, Options{Format: format, Width: 640, Height: 360, Now: fakeClock(time.Second / 8)})
	for _, f := range frames {
		if err := w.WriteFrame(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// near is the agreement a 6-decimal print allows.
func near(a, b float64) bool { return math.Abs(a-b) <= 5e-7 }

func TestJSONParsesBack(t *testing.T) {
	frames := testFrames(10)
	var doc libvmafJSON
	if err := json.Unmarshal(writeAll(t, JSON, frames), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != DefaultVersion || doc.FPS == nil || *doc.FPS != 8 || len(doc.Frames) != len(frames) {
		t.Fatalf("version %q, fps %v, %d frames", doc.Version, doc.FPS, len(doc.Frames))
	}
	for i, f := range frames {
		got := doc.Frames[i]
		if got.FrameNum != f.Num || got.Model != f.Model || len(got.Metrics) != len(f.Metrics) {
			t.Fatalf("frame %d: got %+v", i, got)
		}
		for _, m := range f.Metrics {
			if !near(got.Metrics[m.Name], m.Value) {
				t.Errorf("frame %d %s: %v, want %v", i, m.Name, got.Metrics[m.Name], m.Value)
			}
		}
	}
	for _, m := range frames[0].Metrics {
		min, max, mean, hmean := pooledOf(frames, m.Name)
		p := doc.Pooled[m.Name]
		if !near(p["min"], min) || !near(p["max"], max) || !near(p["mean"], mean) || !near(p["harmonic_mean"], hmean) {
			t.Errorf("pooled %s: %v, want %v %v %v %v", m.Name, p, min, max, mean, hmean)
		}
	}
}

func TestXMLParsesBack(t *testing.T) {
	frames := testFrames(10)
	var doc libvmafXML
	if err := xml.Unmarshal(writeAll(t, XML, frames), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != DefaultVersion || doc.Params.Width != 640 || doc.Params.Height != 360 || doc.FYI.FPS != 8 {
		t.Fatalf("header: %+v", doc)
	}
	if len(doc.Frames) != len(frames) {
		t.Fatalf("%d frames, want %d", len(doc.Frames), len(frames))
	}
	for i, f := range frames {
		attrs := map[string]string{}
		for _, a := range doc.Frames[i].Attrs {
			attrs[a.Name.Local] = a.Value
		}
		if attrs["frameNum"] != strconv.Itoa(f.Num) || attrs["model"] != f.Model {
			t.Errorf("frame %d: attributes %v", i, attrs)
		}
		for _, m := range f.Metrics {
			v, err := strconv.ParseFloat(attrs[m.Name], 64)
			if err != nil || !near(v, m.Value) {
				t.Errorf("frame %d %s: %q, want %v", i, m.Name, attrs[m.Name], m.Value)
			}
		}
	}
	if len(doc.Pooled) != len(frames[0].Metrics) {
		t.Fatalf("%d pooled metrics", len(doc.Pooled))
	}
	for i, p := range doc.Pooled {
		min, max, mean, hmean := pooledOf(frames, frames[0].Metrics[i].Name)
		if p.Name != frames[0].Metrics[i].Name || !near(p.Min, min) || !near(p.Max, max) || !near(p.Mean, mean) || !near(p.HarmonicMean, hmean) {
			t.Errorf("pooled %d: %+v, want %v %v %v %v", i, p, min, max, mean, hmean)
		}
	}
}

func TestCSVParsesBack(t *testing.T) {
	frames := testFrames(10)
	r := csv.NewReader(bytes.NewReader(writeAll(t, CSV, frames)))
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Frame", "integer_adm2", "integer_motion2", "psnr_y", "vmaf", "model", ""}
	if strings.Join(rows[0], "|") != strings.Join(want, "|") || len(rows) != len(frames)+1 {
		t.Fatalf("header %q, %d rows", rows[0], len(rows))
	}
	for i, f := range frames {
		row := rows[i+1]
		if row[0] != strconv.Itoa(f.Num) || row[5] != f.Model {
			t.Errorf("row %d: %q", i, row)
		}
		for j, m := range f.Metrics {
			if v, err := strconv.ParseFloat(row[j+1], 64); err != nil || !near(v, m.Value) {
				t.Errorf("row %d %s: %q, want %v", i, m.Name, row[j+1], m.Value)
			}
		}
	}
}

// A libvmaf log read back and written again gives the same frames, byte
// for byte; pooled values agree to the rounding of their 6-decimal inputs.
func TestGoldenLogRewrite(t *testing.T) {
	for _, path := range goldenScores(t) {
		t.Run(filepath.Base(path), func(t *testing.T) { checkRewrite(t, path) })
	}
}

func checkRewrite(t *testing.T, path string) {
	golden, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	frames, err := framesInOrder(golden)
	if err != nil {
		t.Fatal(err)
	}
	got := writeAll(t, JSON, frames)
	cut := func(b []byte) (head, framesPart string) {
		s := string(b)
		i, j := strings.Index(s, `"frames": [`), strings.Index(s, "\n  ],\n")
		return s[:strings.Index(s, `"fps"`)], s[i:j]
	}
	gh, gf := cut(golden)
	wh, wf := cut(got)
	if gh != wh {
		t.Fatalf("header %q, libvmaf %q", wh, gh)
	}
	gl, wl := strings.Split(gf, "\n"), strings.Split(wf, "\n")
	if len(gl) != len(wl) {
		t.Fatalf("frames take %d lines, libvmaf %d", len(wl), len(gl))
	}
	for i := range gl {
		if gl[i] != wl[i] && !sameNumberLine(gl[i], wl[i]) {
			t.Fatalf("line %d of frames: %q, libvmaf %q", i, wl[i], gl[i])
		}
	}
	var a, b libvmafJSON
	if err := json.Unmarshal(golden, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &b); err != nil {
		t.Fatal(err)
	}
	if len(a.Pooled) != len(b.Pooled) {
		t.Fatalf("%d pooled metrics, libvmaf has %d", len(b.Pooled), len(a.Pooled))
	}
	for name, want := range a.Pooled {
		for method, v := range want {
			if d := math.Abs(b.Pooled[name][method] - v); d > 2e-6 {
				t.Errorf("pooled %s %s: %v, libvmaf %v", name, method, b.Pooled[name][method], v)
			}
		}
	}
}

// sameNumberLine accepts `"name": x` lines whose numbers are one float64.
// A value that libvmaf printed as 1.000001 was at least that, but the
// nearest double to the text is just below and has seven zeros in its
// fraction, so it prints with 16 decimals.
func sameNumberLine(a, b string) bool {
	ka, va, ok1 := strings.Cut(strings.TrimSuffix(a, ","), ": ")
	kb, vb, ok2 := strings.Cut(strings.TrimSuffix(b, ","), ": ")
	if !ok1 || !ok2 || ka != kb || strings.HasSuffix(a, ",") != strings.HasSuffix(b, ",") {
		return false
	}
	x, err1 := strconv.ParseFloat(va, 64)
	y, err2 := strconv.ParseFloat(vb, 64)
	return err1 == nil && err2 == nil && x == y
}

// goldenScores finds libvmaf score logs in the order every golden test
// uses (testclips.Dirs), one log per pair.
func goldenScores(t *testing.T) []string {
	paths := testclips.Glob("..", filepath.Join("scores", "*.vmaf.json"))
	if len(paths) == 0 {
		t.Skipf("no libvmaf score log in %v", testclips.Dirs(".."))
	}
	return paths
}

// framesInOrder reads the frames of a libvmaf JSON log keeping each
// frame's metric order, which a map would lose.
func framesInOrder(data []byte) ([]Frame, error) {
	var doc struct {
		Frames []json.RawMessage `json:"frames"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	var frames []Frame
	for _, raw := range doc.Frames {
		var f struct {
			FrameNum int             `json:"frameNum"`
			Metrics  json.RawMessage `json:"metrics"`
		}
		if err := json.Unmarshal(raw, &f); err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bytes.NewReader(f.Metrics))
		if _, err := dec.Token(); err != nil { // {
			return nil, err
		}
		fr := Frame{Num: f.FrameNum}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			var v float64
			if err := dec.Decode(&v); err != nil {
				return nil, err
			}
			fr.Metrics = append(fr.Metrics, Metric{Name: fmt.Sprint(key), Value: v})
		}
		frames = append(frames, fr)
	}
	return frames, nil
}
