package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/vmaf"
)

func builtin(t *testing.T, version string) *vmaf.Model {
	t.Helper()
	m, err := vmaf.BuiltinModel(version)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// swapFrames: frames 0-2 scored by vmaf_v0.6.1, 3-4 by vmaf_v0.6.1neg,
// both named "vmaf".
func swapFrames(t *testing.T) []Frame {
	a, b := builtin(t, "vmaf_v0.6.1"), builtin(t, "vmaf_v0.6.1neg")
	if a.Name != b.Name {
		t.Fatalf("models named %q and %q; the test wants one name", a.Name, b.Name)
	}
	var fs []Frame
	for i, v := range []float64{90, 80, 70, 50, 40} {
		m := a
		if i >= 3 {
			m = b
		}
		fs = append(fs, Frame{Num: i, Models: []*vmaf.Model{m},
			Metrics: []Metric{{Name: "psnr_y", Value: 40}, {Name: "vmaf", Value: v}}})
	}
	return fs
}

func writeDoc(t *testing.T, format Format, frames []Frame) string {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, Options{Format: format, Now: fakeClock(250 * time.Millisecond)})
	for _, f := range frames {
		if err := w.WriteFrame(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestFaultSwapPoolsPerModel: after a swap the new model's frames and
// pooled metrics are under a name of their own, never averaged with the
// old model's, and the document says where the swap happened.
func TestFaultSwapPoolsPerModel(t *testing.T) {
	const newKey = "vmaf_v0.6.1neg"
	t.Run("json", func(t *testing.T) {
		var doc struct {
			Frames []struct {
				FrameNum int                `json:"frameNum"`
				Metrics  map[string]float64 `json:"metrics"`
			} `json:"frames"`
			Pooled map[string]struct{ Mean float64 } `json:"pooled_metrics"`
			Swaps  []struct {
				FrameNum int    `json:"frameNum"`
				From     string `json:"from"`
				To       string `json:"to"`
			} `json:"model_swaps"`
		}
		out := writeDoc(t, JSON, swapFrames(t))
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		for _, f := range doc.Frames {
			_, old := f.Metrics["vmaf"]
			_, neu := f.Metrics[newKey]
			if (f.FrameNum < 3) != old || (f.FrameNum >= 3) != neu {
				t.Errorf("frame %d metrics %v", f.FrameNum, f.Metrics)
			}
		}
		if doc.Pooled["vmaf"].Mean != 80 || doc.Pooled[newKey].Mean != 45 {
			t.Errorf("pooled %+v, want vmaf 80 and %s 45", doc.Pooled, newKey)
		}
		if len(doc.Swaps) != 1 || doc.Swaps[0].FrameNum != 3 || doc.Swaps[0].From != "vmaf" || doc.Swaps[0].To != newKey {
			t.Errorf("model_swaps %+v", doc.Swaps)
		}
	})
	t.Run("xml", func(t *testing.T) {
		var doc struct {
			Pooled []struct {
				Name string  `xml:"name,attr"`
				Mean float64 `xml:"mean,attr"`
			} `xml:"pooled_metrics>metric"`
			Swaps []struct {
				FrameNum int    `xml:"frameNum,attr"`
				From     string `xml:"from,attr"`
				To       string `xml:"to,attr"`
			} `xml:"model_swaps>swap"`
		}
		out := writeDoc(t, XML, swapFrames(t))
		if err := xml.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		means := map[string]float64{}
		for _, p := range doc.Pooled {
			means[p.Name] = p.Mean
		}
		if means["vmaf"] != 80 || means[newKey] != 45 {
			t.Errorf("pooled %v", means)
		}
		if len(doc.Swaps) != 1 || doc.Swaps[0].FrameNum != 3 || doc.Swaps[0].From != "vmaf" || doc.Swaps[0].To != newKey {
			t.Errorf("model_swaps %+v", doc.Swaps)
		}
	})
	t.Run("csv", func(t *testing.T) {
		out := writeDoc(t, CSV, swapFrames(t))
		want := "Frame,psnr_y,vmaf," + newKey + ",\n" +
			"0,40.000000,90.000000,,\n1,40.000000,80.000000,,\n2,40.000000,70.000000,,\n" +
			"3,40.000000,,50.000000,\n4,40.000000,,40.000000,\n"
		if out != want {
			t.Errorf("csv:\n%s\nwant:\n%s", out, want)
		}
		if _, err := csv.NewReader(strings.NewReader(out)).ReadAll(); err != nil {
			t.Errorf("a strict CSV reader: %v", err)
		}
		// A file kept valid on disk grows its header and pads the rows
		// it holds at the swap.
		path := filepath.Join(t.TempDir(), "out.csv")
		w, err := Create(path, Options{Format: CSV})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range swapFrames(t) {
			if err := w.WriteFrame(f); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != want {
			t.Errorf("csv file (%v):\n%s\nwant:\n%s", err, got, want)
		}
	})
}

// TestModelsWithoutSwapChangeNothing: naming the models of a run that
// never swaps leaves every format byte for byte as before.
func TestModelsWithoutSwapChangeNothing(t *testing.T) {
	m := builtin(t, "vmaf_v0.6.1")
	for _, format := range []Format{XML, JSON, CSV, Sub} {
		plain := twoFrames()
		named := twoFrames()
		for i := range named {
			named[i].Models = []*vmaf.Model{m}
		}
		if a, b := writeDoc(t, format, plain), writeDoc(t, format, named); a != b {
			t.Errorf("%s: with models\n%s\nwithout\n%s", format, b, a)
		}
	}
}
