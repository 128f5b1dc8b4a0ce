package main

import (
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"

	"github.com/vmafsink/vmafsink/pipeline"
)

// worstFramesOr is --worst-frames, or the Runner's default when not given.
func (s *settings) worstFramesOr() int {
	if s.worstFrames == nil {
		return pipeline.DefaultWorstFrames
	}
	return *s.worstFrames
}

// worstKinds are the images --worst-dir writes for each frame, the ones
// vmaf_worst_frames attaches with images=all.
var worstKinds = []pipeline.ImageKind{pipeline.ImageReference, pipeline.ImageDistorted, pipeline.ImageDifference}

// worstWritten is one frame --worst-dir wrote, as the results file's
// worst_frames section lists it (vmafctl worst RESULTS.json reads it).
type worstWritten struct {
	FrameNum int               `json:"frameNum"`
	Model    string            `json:"model"`
	Score    float64           `json:"score"`
	Images   map[string]string `json:"images"` // kind → the PNG's path, as written
}

// worstSection is the results file's section for --worst-dir.
const worstSection = "worst_frames"

// writeWorstFrames writes the run's worst frames that kept their
// pictures into dir as frame-NNNNNN-KIND.png (the names vmafctl worst
// gives them), worst first, naming each on w; it returns the frames it
// wrote.
func writeWorstFrames(dir string, worst []pipeline.WorstFrame, w io.Writer) ([]worstWritten, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("--worst-dir: %w", err)
	}
	var wrote []worstWritten
	for rank, wf := range worst {
		if wf.Images == nil {
			continue
		}
		ww := worstWritten{FrameNum: int(wf.Record.Index), Model: recordModel(wf.Record), Score: wf.Record.Score, Images: map[string]string{}}
		for _, kind := range worstKinds {
			img, err := wf.Images.Image(kind, 0)
			if err != nil {
				return wrote, fmt.Errorf("--worst-dir: frame %d: %w", wf.Record.Index, err)
			}
			path := filepath.Join(dir, fmt.Sprintf("frame-%06d-%s.png", wf.Record.Index, kind))
			if err := writePNG(path, img); err != nil {
				return wrote, fmt.Errorf("--worst-dir: %w", err)
			}
			ww.Images[kind.String()] = path
		}
		wrote = append(wrote, ww)
		if w != nil {
			fmt.Fprintf(w, "vmaf-score: worst %d: frame %d, %s %.6f: %s\n", rank+1, wf.Record.Index,
				recordModel(wf.Record), wf.Record.Score, filepath.Join(dir, fmt.Sprintf("frame-%06d-*.png", wf.Record.Index)))
		}
	}
	return wrote, nil
}

func recordModel(r *pipeline.Record) string {
	if m := r.Model(); m != nil {
		return m.Version
	}
	return "score"
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeWorst writes --worst-dir once every frame is scored.
func (rs *runnerSink) writeWorst() error {
	n := rs.r.WorstFrames()
	wrote, err := writeWorstFrames(rs.worstDir, rs.r.Worst(n), rs.stderr)
	if err == nil && len(wrote) == 0 && rs.stderr != nil {
		fmt.Fprintf(rs.stderr, "vmaf-score: --worst-dir: no frame was scored, nothing written to %s\n", rs.worstDir)
	}
	if rs.out != nil && len(wrote) > 0 {
		// The section goes into the results with their trailer.
		raw, merr := json.Marshal(wrote)
		if merr != nil {
			return merr
		}
		rs.out.SetSection(worstSection, raw)
	}
	return err
}
