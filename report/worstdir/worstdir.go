// Package worstdir writes a finished run's worst frames as PNG files and
// describes them for the results file's worst_frames section, for every
// front end that keeps worst frames (vmaf-score's --worst-dir, the
// element's worst-dir property). vmafctl worst reads the section back.
package worstdir

import (
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"

	"github.com/vmafsink/vmafsink/pipeline"
)

// Section is the results file's section that lists the frames written.
const Section = "worst_frames"

// kinds are the pictures written for each frame: the ones
// vmaf_worst_frames attaches with images=all.
var kinds = []pipeline.ImageKind{pipeline.ImageReference, pipeline.ImageDistorted, pipeline.ImageDifference}

// Frame is one frame written, as the section lists it.
type Frame struct {
	FrameNum int               `json:"frameNum"`
	Model    string            `json:"model"`
	Score    float64           `json:"score"`
	Images   map[string]string `json:"images"` // kind → the PNG's path, as written
}

// Pattern is the glob that matches a frame's files in dir.
func Pattern(dir string, frame int) string {
	return filepath.Join(dir, fmt.Sprintf("frame-%06d-*.png", frame))
}

// Write writes the frames of worst that kept their pictures into dir as
// frame-NNNNNN-KIND.png, worst first, creating dir if need be, and
// returns what it wrote, also when it stops at an error.
func Write(dir string, worst []pipeline.WorstFrame) ([]Frame, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var wrote []Frame
	for _, wf := range worst {
		if wf.Images == nil {
			continue // ranked beyond the frames kept with pictures
		}
		f := Frame{FrameNum: int(wf.Record.Index), Model: Model(wf.Record), Score: wf.Record.Score, Images: map[string]string{}}
		for _, kind := range kinds {
			img, err := wf.Images.Image(kind, 0)
			if err != nil {
				return wrote, fmt.Errorf("frame %d: %w", wf.Record.Index, err)
			}
			path := filepath.Join(dir, fmt.Sprintf("frame-%06d-%s.png", wf.Record.Index, kind))
			if err := writePNG(path, img); err != nil {
				return wrote, err
			}
			f.Images[kind.String()] = path
		}
		wrote = append(wrote, f)
	}
	return wrote, nil
}

// SectionJSON is the section's value for frames.
func SectionJSON(frames []Frame) ([]byte, error) { return json.Marshal(frames) }

// Model names the model that scored r, as the results file keys it.
func Model(r *pipeline.Record) string {
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
