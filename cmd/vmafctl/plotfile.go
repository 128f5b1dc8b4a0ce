package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/vmafsink/vmafsink/internal/plot"
)

// A results file (vmaf-score --json, or the element's results-filename
// in JSON) plots without a socket, after the run: `vmafctl plot
// results.json -o FILE.svg`. Its model scores are the metrics named vmaf
// or vmaf_* (libvmaf's default key and the names the documentation gives
// other models), without a bootstrap model's statistics; its swaps,
// windows and drops are the file's model_swaps, windows and alerts.

// modelKey matches a model score's key in a results file.
var modelKey = regexp.MustCompile(`^vmaf(_[a-z0-9.]+)*$`)

func isModelKey(k string) bool {
	if !modelKey.MatchString(k) {
		return false
	}
	for _, stat := range []string{"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"} {
		if strings.HasSuffix(k, stat) {
			return false
		}
	}
	return !regexp.MustCompile(`_\d{4}$`).MatchString(k)
}

// resultsData reads a JSON results file into what a plot shows.
func resultsData(path string) (plot.Data, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return plot.Data{}, fail(exitError, "plot: %v", err)
	}
	var doc struct {
		Frames []struct {
			FrameNum int                `json:"frameNum"`
			Metrics  map[string]float64 `json:"metrics"`
		} `json:"frames"`
		Swaps []struct {
			FrameNum int    `json:"frameNum"`
			To       string `json:"to"`
		} `json:"model_swaps"`
		Windows []struct {
			First int     `json:"first"`
			Last  int     `json:"last"`
			Mean  float64 `json:"mean"`
		} `json:"windows"`
		Alerts []struct {
			First     int     `json:"first"`
			Last      int     `json:"last"`
			Threshold float64 `json:"threshold"`
		} `json:"alerts"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return plot.Data{}, fail(exitError, "plot: %s is not a JSON results file: %v", path, err)
	}
	d := plot.Data{Title: filepath.Base(path)}
	byKey := map[string]int{}
	for _, f := range doc.Frames {
		keys := make([]string, 0, len(f.Metrics))
		for k := range f.Metrics {
			if isModelKey(k) {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			i, ok := byKey[k]
			if !ok {
				i = len(d.Series)
				byKey[k] = i
				d.Series = append(d.Series, plot.Series{Name: k})
			}
			d.Series[i].Frames = append(d.Series[i].Frames, f.FrameNum)
			d.Series[i].Scores = append(d.Series[i].Scores, f.Metrics[k])
		}
	}
	if len(d.Series) == 0 {
		return plot.Data{}, fail(exitError, "plot: %s has no model score (a metric named vmaf or vmaf_*) to draw", path)
	}
	names := make([]string, len(d.Series))
	for i, s := range d.Series {
		names[i] = s.Name
	}
	d.Title = fmt.Sprintf("%s — %s", filepath.Base(path), strings.Join(names, ", "))
	for _, sw := range doc.Swaps {
		d.Swaps = append(d.Swaps, plot.Swap{Frame: sw.FrameNum, To: sw.To})
	}
	for _, w := range doc.Windows {
		d.Windows = append(d.Windows, plot.Window{First: w.First, Last: w.Last, Mean: w.Mean})
	}
	for _, a := range doc.Alerts {
		d.Threshold = a.Threshold
		d.Drops = append(d.Drops, plot.Drop{First: a.First, Last: a.Last})
	}
	return d, nil
}

// writePlot draws a results file's plot and says what it drew.
func writePlot(d plot.Data, format plot.Format, out string, stdout, stderr io.Writer) int {
	var buf bytes.Buffer
	if err := plot.Render(&buf, format, d); err != nil {
		return report(stderr, fail(exitError, "%v", err))
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o666); err != nil {
		return report(stderr, fail(exitError, "plot: %v", err))
	}
	seen := map[int]bool{}
	for _, s := range d.Series {
		for _, f := range s.Frames {
			seen[f] = true
		}
	}
	frames := len(seen)
	fmt.Fprintf(stdout, "%s: %d frames, %d models, %d drops\n", out, frames, len(d.Series), len(d.Drops))
	return exitOK
}
