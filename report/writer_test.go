package report

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// fakeClock advances by step on every reading, so the processing rate a
// Writer measures is known: one frame per step.
func fakeClock(step time.Duration) func() time.Time {
	t := time.Unix(1700000000, 0)
	return func() time.Time {
		t = t.Add(step)
		return t
	}
}

func twoFrames() []Frame {
	return []Frame{
		{Num: 0, Metrics: []Metric{{Name: "integer_motion2", Value: 0}, {Name: "psnr_y", Value: 39.880125}, {Name: "vmaf", Value: 83.856285}}},
		{Num: 1, Metrics: []Metric{{Name: "integer_motion2", Value: 2.5}, {Name: "psnr_y", Value: 40.1}, {Name: "vmaf", Value: 80}}},
	}
}

// The expected documents follow libvmaf 3.2's output.c line by line. The
// clock ticks once at the start and once per frame, so the rate over two
// frames is 2 frames / 2 ticks of 250ms = 4 fps.
func TestWriterLayout(t *testing.T) {
	tests := []struct {
		format Format
		want   string
	}{
		{JSON, `{
  "version": "3.2.0",
  "fps": 4.00,
  "frames": [
    {
      "frameNum": 0,
      "metrics": {
        "integer_motion2": 0.000000,
        "psnr_y": 39.880125,
        "vmaf": 83.856285
      }
    },
    {
      "frameNum": 1,
      "metrics": {
        "integer_motion2": 2.500000,
        "psnr_y": 40.100000,
        "vmaf": 80.000000
      }
    }
  ],
  "pooled_metrics": {
    "integer_motion2": {
      "min": 0.000000,
      "max": 2.500000,
      "mean": 1.250000,
      "harmonic_mean": 0.555556
    },
    "psnr_y": {
      "min": 39.880125,
      "max": 40.100000,
      "mean": 39.990063,
      "harmonic_mean": 39.989768
    },
    "vmaf": {
      "min": 80.000000,
      "max": 83.856285,
      "mean": 81.928143,
      "harmonic_mean": 81.883312
    }
  },
  "aggregate_metrics": {
  }
}
`},
		{XML, `<VMAF version="3.2.0">
  <params qualityWidth="576" qualityHeight="324" />
  <fyi fps="4.00" />
  <frames>
    <frame frameNum="0" integer_motion2="0.000000" psnr_y="39.880125" vmaf="83.856285" />
    <frame frameNum="1" integer_motion2="2.500000" psnr_y="40.100000" vmaf="80.000000" />
  </frames>
  <pooled_metrics>
    <metric name="integer_motion2" min="0.000000" max="2.500000" mean="1.250000" harmonic_mean="0.555556" />
    <metric name="psnr_y" min="39.880125" max="40.100000" mean="39.990063" harmonic_mean="39.989768" />
    <metric name="vmaf" min="80.000000" max="83.856285" mean="81.928143" harmonic_mean="81.883312" />
  </pooled_metrics>
  <aggregate_metrics />
</VMAF>
`},
		{CSV, `Frame,integer_motion2,psnr_y,vmaf,
0,0.000000,39.880125,83.856285,
1,2.500000,40.100000,80.000000,
`},
		{Sub, `{0}{1}frame: 0|integer_motion2: 0.000000|psnr_y: 39.880125|vmaf: 83.856285|
{1}{2}frame: 1|integer_motion2: 2.500000|psnr_y: 40.100000|vmaf: 80.000000|
`},
	}
	for _, tc := range tests {
		t.Run(tc.format.String(), func(t *testing.T) {
			var out bytes.Buffer
			w := NewWriter(&out, Options{Format: tc.format, Width: 576, Height: 324, Now: fakeClock(250 * time.Millisecond)})
			for _, f := range twoFrames() {
				if err := w.WriteFrame(f); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestWriterEmptyAndAggregate(t *testing.T) {
	tests := []struct {
		format    Format
		aggregate bool
		want      string
	}{
		{JSON, false, "{\n  \"version\": \"3.2.0\",\n  \"fps\": null,\n  \"frames\": [\n  ],\n  \"pooled_metrics\": {\n  },\n  \"aggregate_metrics\": {\n  }\n}\n"},
		{JSON, true, "{\n  \"version\": \"3.2.0\",\n  \"fps\": null,\n  \"frames\": [\n  ],\n  \"pooled_metrics\": {\n  },\n  \"aggregate_metrics\": {\n    \"a\": 1.000000,\n    \"b\": null\n  }\n}\n"},
		{XML, true, "<VMAF version=\"3.2.0\">\n  <params qualityWidth=\"0\" qualityHeight=\"0\" />\n  <fyi fps=\"nan\" />\n  <frames>\n  </frames>\n  <pooled_metrics>\n  </pooled_metrics>\n  <aggregate_metrics a=\"1.000000\" b=\"nan\" />\n</VMAF>\n"},
		{CSV, false, "Frame,\n"},
		{Sub, false, ""},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		w := NewWriter(&out, Options{Format: tc.format})
		if tc.aggregate {
			w.SetAggregate("a", 2)
			w.SetAggregate("b", math.NaN())
			w.SetAggregate("a", 1) // replaces, keeps its place
		}
		// A frame without metrics is skipped like libvmaf's unscored frames.
		if err := w.WriteFrame(Frame{Num: 0}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if got := out.String(); got != tc.want {
			t.Errorf("%v aggregate=%v: got %q, want %q", tc.format, tc.aggregate, got, tc.want)
		}
	}
}

func TestWriterModelField(t *testing.T) {
	frames := []Frame{
		{Num: 7, Model: "vmaf_v0.6.1", Metrics: []Metric{{Name: "vmaf", Value: 90}}},
		{Num: 8, Model: "vmaf_v0.6.1neg", Metrics: []Metric{{Name: "vmaf", Value: 88}}},
	}
	tests := []struct {
		format Format
		want   []string // substrings in order
	}{
		{JSON, []string{"\"frameNum\": 7,\n      \"model\": \"vmaf_v0.6.1\",\n      \"metrics\": {", "\"model\": \"vmaf_v0.6.1neg\""}},
		{XML, []string{`<frame frameNum="7" model="vmaf_v0.6.1" vmaf="90.000000" />`, `model="vmaf_v0.6.1neg"`}},
		{CSV, []string{"Frame,vmaf,model,\n7,90.000000,vmaf_v0.6.1,\n8,88.000000,vmaf_v0.6.1neg,\n"}},
		{Sub, []string{"{7}{8}frame: 7|vmaf: 90.000000|model: vmaf_v0.6.1|\n"}},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		w := NewWriter(&out, Options{Format: tc.format})
		for _, f := range frames {
			if err := w.WriteFrame(f); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		rest := out.String()
		for _, s := range tc.want {
			i := strings.Index(rest, s)
			if i < 0 {
				t.Errorf("%v: %q not found in\n%s", tc.format, s, out.String())
				break
			}
			rest = rest[i+len(s):]
		}
	}
}

// CSV columns come from the first frame; a later frame's missing metric
// leaves its cell empty and an unknown metric stays out of the table.
func TestWriterCSVColumns(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, Options{Format: CSV})
	w.WriteFrame(Frame{Num: 0, Metrics: []Metric{{Name: "a", Value: 1}, {Name: "b", Value: 2}}})
	w.WriteFrame(Frame{Num: 1, Metrics: []Metric{{Name: "b", Value: 3}, {Name: "c", Value: 4}}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := "Frame,a,b,\n0,1.000000,2.000000,\n1,,3.000000,\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterErrors(t *testing.T) {
	w := NewWriter(failWriter{}, Options{Format: JSON})
	w.WriteFrame(twoFrames()[0])
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Close on a failing writer: %v", err)
	}
	if err := w.WriteFrame(twoFrames()[1]); err == nil {
		t.Error("WriteFrame after Close gave no error")
	}
	if err := w.Close(); err == nil {
		t.Error("second Close gave no error")
	}
	if _, err := Create("/nonexistent-dir/x.json", Options{}); err == nil {
		t.Error("Create in a missing directory gave no error")
	}
}
