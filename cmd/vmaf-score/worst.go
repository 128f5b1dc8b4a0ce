package main

import (
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

// writeWorstFrames writes the run's worst frames that kept their
// pictures into dir as frame-NNNNNN-KIND.png (the names vmafctl worst
// gives them), worst first, naming each on w; it returns how many frames
// it wrote.
func writeWorstFrames(dir string, worst []pipeline.WorstFrame, w io.Writer) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("--worst-dir: %w", err)
	}
	n := 0
	for rank, wf := range worst {
		if wf.Images == nil {
			continue
		}
		for _, kind := range worstKinds {
			img, err := wf.Images.Image(kind, 0)
			if err != nil {
				return n, fmt.Errorf("--worst-dir: frame %d: %w", wf.Record.Index, err)
			}
			path := filepath.Join(dir, fmt.Sprintf("frame-%06d-%s.png", wf.Record.Index, kind))
			if err := writePNG(path, img); err != nil {
				return n, fmt.Errorf("--worst-dir: %w", err)
			}
		}
		n++
		if w != nil {
			fmt.Fprintf(w, "vmaf-score: worst %d: frame %d, %s %.6f: %s\n", rank+1, wf.Record.Index,
				recordModel(wf.Record), wf.Record.Score, filepath.Join(dir, fmt.Sprintf("frame-%06d-*.png", wf.Record.Index)))
		}
	}
	return n, nil
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
	if err == nil && wrote == 0 && rs.stderr != nil {
		fmt.Fprintf(rs.stderr, "vmaf-score: --worst-dir: no frame was scored, nothing written to %s\n", rs.worstDir)
	}
	return err
}
