package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
)

// A results file (vmaf-score --json, or the element's results-filename
// in JSON) holds every frame's scores, so the worst frames rank without a
// socket, after the run: `vmafctl worst results.json`. It holds no
// pictures; vmaf-score --worst-dir (the element's worst-dir) writes those
// when the run ends and lists them in the file's worst_frames, which this
// shows beside them.

// fileWorstFrame is one of a results file's worst frames.
type fileWorstFrame struct {
	Frame   int                `json:"frame"`
	Model   string             `json:"model"`
	Score   float64            `json:"score"`
	Metrics map[string]float64 `json:"metrics"`
	// Images are the frame's pictures worst-dir wrote (kind → path).
	Images map[string]string `json:"images,omitempty"`
}

// fileWorst is what worst -json prints for a results file.
type fileWorst struct {
	File   string           `json:"file"`
	Frames []fileWorstFrame `json:"frames"`
	Scored int              `json:"frames_scored"`
}

// worstInFile ranks a results file's frames by a model's score, lowest
// first (ties by frame number), and keeps the n worst; model "" picks
// vmaf, or else the first model score the frames carry.
func worstInFile(path, model string, n int) (fileWorst, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return fileWorst{}, fail(exitError, "worst: %v", err)
	}
	var doc struct {
		Frames []struct {
			FrameNum int                `json:"frameNum"`
			Metrics  map[string]float64 `json:"metrics"`
		} `json:"frames"`
		Worst []struct {
			FrameNum int               `json:"frameNum"`
			Images   map[string]string `json:"images"`
		} `json:"worst_frames"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return fileWorst{}, fail(exitError, "worst: %s is not a JSON results file: %v", path, err)
	}
	if model == "" {
		var keys []string
		for _, f := range doc.Frames {
			for k := range f.Metrics {
				if isModelKey(k) && !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
		slices.Sort(keys)
		switch {
		case slices.Contains(keys, "vmaf"):
			model = "vmaf"
		case len(keys) > 0:
			model = keys[0]
		default:
			return fileWorst{}, fail(exitError, "worst: %s has no model scores per frame (vmaf or vmaf_*); name one with -model", path)
		}
	}
	out := fileWorst{File: path}
	for _, f := range doc.Frames {
		if v, ok := f.Metrics[model]; ok {
			out.Frames = append(out.Frames, fileWorstFrame{Frame: f.FrameNum, Model: model, Score: v, Metrics: f.Metrics})
		}
	}
	out.Scored = len(out.Frames)
	if out.Scored == 0 {
		return fileWorst{}, fail(exitError, "worst: no frame of %s has %q", path, model)
	}
	slices.SortStableFunc(out.Frames, func(a, b fileWorstFrame) int {
		switch {
		case a.Score < b.Score:
			return -1
		case a.Score > b.Score:
			return 1
		}
		return a.Frame - b.Frame
	})
	out.Frames = out.Frames[:min(n, len(out.Frames))]
	for i := range out.Frames {
		for _, w := range doc.Worst {
			if w.FrameNum == out.Frames[i].Frame {
				out.Frames[i].Images = w.Images
			}
		}
	}
	return out, nil
}

// printWorstInFile lists a results file's worst frames.
func printWorstInFile(w fileWorst, asJSON bool, stdout io.Writer) {
	if asJSON {
		printJSON(stdout, w)
		return
	}
	pictures := slices.ContainsFunc(w.Frames, func(f fileWorstFrame) bool { return len(f.Images) > 0 })
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	if pictures {
		fmt.Fprintln(tw, "frame\tmodel\tscore\tfiles")
	} else {
		fmt.Fprintln(tw, "frame\tmodel\tscore")
	}
	for _, f := range w.Frames {
		fmt.Fprintf(tw, "%d\t%s\t%.6f", f.Frame, f.Model, f.Score)
		if pictures {
			var files []string
			for _, kind := range []string{"reference", "distorted", "difference"} {
				if p := f.Images[kind]; p != "" {
					files = append(files, p)
				}
			}
			fmt.Fprintf(tw, "\t%s", strings.Join(files, " "))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "(%d worst of %d frames scored in %s)\n", len(w.Frames), w.Scored, w.File)
}

// offlineCommand reports whether a command line reads a results file
// rather than a socket: plot or worst given a .json file.
func offlineCommand(args []string) bool {
	if len(args) == 0 || (args[0] != "plot" && args[0] != "worst") {
		return false
	}
	for _, a := range args[1:] {
		if strings.HasSuffix(strings.ToLower(a), ".json") {
			return true
		}
	}
	return false
}
