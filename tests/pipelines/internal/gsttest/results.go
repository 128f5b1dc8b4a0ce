package gsttest

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"strconv"
	"testing"
)

// ResultFrame is one frame of a results file.
type ResultFrame struct {
	Num     int
	Model   string
	Metrics map[string]float64
}

// ReadResults reads and parses a results file, failing the test when it
// cannot.
func ReadResults(t testing.TB, path, format string) []ResultFrame {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	frames, err := ParseResults(data, format)
	if err != nil {
		t.Fatalf("results file %s: %v\n%s", path, err, data[:min(len(data), 2000)])
	}
	return frames
}

// ParseResults reads a results file in libvmaf's json, xml or csv layout.
func ParseResults(data []byte, format string) ([]ResultFrame, error) {
	switch format {
	case "json":
		var doc struct {
			Frames []struct {
				FrameNum int                `json:"frameNum"`
				Model    string             `json:"model"`
				Metrics  map[string]float64 `json:"metrics"`
			} `json:"frames"`
			Pooled map[string]map[string]float64 `json:"pooled_metrics"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, err
		}
		if len(doc.Frames) > 0 && len(doc.Pooled) == 0 {
			return nil, fmt.Errorf("no pooled_metrics")
		}
		out := make([]ResultFrame, len(doc.Frames))
		for i, f := range doc.Frames {
			out[i] = ResultFrame{Num: f.FrameNum, Model: f.Model, Metrics: f.Metrics}
		}
		return out, nil
	case "xml":
		var doc struct {
			XMLName xml.Name `xml:"VMAF"`
			Frames  []struct {
				Attrs []xml.Attr `xml:",any,attr"`
			} `xml:"frames>frame"`
			Pooled []struct{} `xml:"pooled_metrics>metric"`
		}
		if err := xml.Unmarshal(data, &doc); err != nil {
			return nil, err
		}
		if len(doc.Frames) > 0 && len(doc.Pooled) == 0 {
			return nil, fmt.Errorf("no pooled_metrics")
		}
		out := make([]ResultFrame, len(doc.Frames))
		for i, f := range doc.Frames {
			rf := ResultFrame{Metrics: map[string]float64{}}
			for _, a := range f.Attrs {
				var err error
				switch a.Name.Local {
				case "frameNum":
					rf.Num, err = strconv.Atoi(a.Value)
				case "model":
					rf.Model = a.Value
				default:
					rf.Metrics[a.Name.Local], err = strconv.ParseFloat(a.Value, 64)
				}
				if err != nil {
					return nil, fmt.Errorf("frame %d attribute %s: %w", i, a.Name.Local, err)
				}
			}
			out[i] = rf
		}
		return out, nil
	case "csv":
		rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil {
			return nil, err
		}
		if len(rows) == 0 || len(rows[0]) == 0 || rows[0][0] != "Frame" {
			return nil, fmt.Errorf("no Frame header")
		}
		head := rows[0]
		var out []ResultFrame
		for _, row := range rows[1:] {
			rf := ResultFrame{Metrics: map[string]float64{}}
			for j, cell := range row {
				if j >= len(head) || head[j] == "" || cell == "" {
					continue
				}
				switch head[j] {
				case "Frame":
					rf.Num, err = strconv.Atoi(cell)
				case "model":
					rf.Model = cell
				default:
					rf.Metrics[head[j]], err = strconv.ParseFloat(cell, 64)
				}
				if err != nil {
					return nil, fmt.Errorf("row %d column %s: %w", len(out), head[j], err)
				}
			}
			out = append(out, rf)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown results format %q", format)
}
