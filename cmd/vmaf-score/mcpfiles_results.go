package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf"
)

// What vmaf_score_files makes of a run's result file and its stderr.

// resultsDoc is the part of vmaf-score's JSON output read back.
type resultsDoc struct {
	Version string `json:"version"`
	// Frames are decoded only for a reply that carries them: a long
	// run's frames would take many times the file's size as maps.
	Frames    []json.RawMessage              `json:"frames"`
	Pooled    map[string]map[string]*float64 `json:"pooled_metrics"`
	Aggregate map[string]*float64            `json:"aggregate_metrics"`
}

// filterFrames leaves in each frame the metrics mode asks for: with
// "scores" (or "") the models' scores, a bootstrap model's bagged score
// and interval, and the outputs of the extractors features names; with
// "all" everything. A reply of 2000 frames with every metric of the
// default model is about 1.9 MB, too much for an agent to read.
func filterFrames(frames []filesFrame, mode string, models []*vmaf.Model, features []string) error {
	if mode != "" && mode != "scores" {
		return nil
	}
	keep := map[string]bool{}
	for _, m := range models {
		keep[m.Name] = true
		if m.IsCollection() {
			for _, suffix := range []string{"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"} {
				keep[m.Name+suffix] = true
			}
		}
	}
	other, err := notExtraFeature(features)
	if err != nil {
		return err
	}
	for _, f := range frames {
		for name := range f.Metrics {
			if !keep[name] && (len(features) == 0 || other(name)) {
				delete(f.Metrics, name)
			}
		}
	}
	return nil
}

// mcpNotes turns what a run wrote to stderr into one note a line, without
// the program name.
func mcpNotes(text string) []string {
	var notes []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(strings.TrimPrefix(l, "vmaf-score: ")); l != "" {
			notes = append(notes, l)
		}
	}
	return notes
}

// readResults reads back the JSON file vmaf-score wrote.
func readResults(path string) (scoreFilesResult, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return scoreFilesResult{}, fmt.Errorf("reading the results: %w", err)
	}
	var doc resultsDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return scoreFilesResult{}, fmt.Errorf("reading the results %s: %w", path, err)
	}
	res := scoreFilesResult{Version: doc.Version, FramesScored: len(doc.Frames), Pooled: doc.Pooled, Aggregate: doc.Aggregate}
	if len(doc.Frames) > maxInlineFrames {
		return res, nil
	}
	res.Frames = make([]filesFrame, len(doc.Frames))
	for i, raw := range doc.Frames {
		if err := json.Unmarshal(raw, &res.Frames[i]); err != nil {
			return scoreFilesResult{}, fmt.Errorf("reading the results %s: frame %d: %w", path, i, err)
		}
	}
	return res, nil
}
