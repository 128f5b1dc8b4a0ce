// Package plot draws per-frame quality scores: one line per model over
// the frame index, each model's pooled mean as a dashed line, model swaps
// and pauses marked, and the worst frames labelled. It takes plain data,
// so vmaf-score (from its results) and vmafctl (from a live socket) draw
// the same picture.
package plot

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Format is an output format.
type Format string

const (
	SVG Format = "svg"
	PNG Format = "png"
)

// FormatOf returns the format a file name's extension asks for: .svg or
// .png, in any case.
func FormatOf(path string) (Format, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".svg":
		return SVG, nil
	case ".png":
		return PNG, nil
	default:
		return "", fmt.Errorf("plot: %q: the file name must end in .svg or .png", path)
	}
}

// Series is one model's per-frame score.
type Series struct {
	Name   string    // the model's name, shown in the legend
	Frames []int     // frame indices, ascending
	Scores []float64 // one per frame
}

// Swap marks the first frame scored by another model.
type Swap struct {
	Frame int
	To    string
}

// Pause marks where scoring was paused: From is the first frame index
// after the pause took effect and To the first after the resume. When
// the run held its input while paused (nothing was skipped), From == To
// and the pause is a line between two frames; otherwise frames From to
// To-1 were not scored and are shaded. To < 0: still paused at the end.
type Pause struct {
	From, To int
	Label    string // "paused" when empty
}

// Data is what a plot shows.
type Data struct {
	Title  string
	Series []Series
	Swaps  []Swap
	Pauses []Pause
	// Worst is how many of the lowest-scoring frames get a label with
	// their index and score (0: DefaultWorst; negative: none).
	Worst int
	// Threshold, when above 0, is the alert threshold, drawn across the
	// plot; Drops are the quality drops below it, shaded.
	Threshold float64
	Drops     []Drop
	// Windows are the run's windows (--window-frames, window-frames):
	// each drawn as its mean across its frames.
	Windows []Window
}

// Window is a window of frames and the mean score over them.
type Window struct {
	First, Last int
	Mean        float64
}

// Drop is a quality drop: frames First to Last scored below the alert
// threshold.
type Drop struct {
	First, Last int
}

// DefaultWorst is how many worst frames are labelled by default.
const DefaultWorst = 5

// Size of the picture: 960x432 pixels in PNG (at 96 dpi).
const (
	Width  = 10 * vg.Inch
	Height = 4.5 * vg.Inch
)

// ErrNoScores is returned for data without a single score to draw.
var ErrNoScores = errors.New("plot: no scores to draw")

// Render draws d in format f and writes it to w. The legend goes right
// of the plot, outside the data.
func Render(w io.Writer, f Format, d Data) error {
	var c vg.CanvasWriterTo
	switch f {
	case SVG:
		c = vgsvg.New(Width, Height)
	case PNG:
		c = vgimg.PngCanvas{Canvas: vgimg.New(Width, Height)}
	default:
		return fmt.Errorf("plot: unknown format %q", f)
	}
	p, err := build(d)
	if err != nil {
		return err
	}
	legend := p.Legend
	p.Legend = plot.NewLegend() // drawn apart, beside the plot
	dc := draw.New(c)
	lw := legendWidth(&legend)
	plotArea := dc
	plotArea.Max.X -= lw + legendGap
	p.Draw(plotArea)
	legendArea := dc
	legendArea.Min.X = plotArea.Max.X + legendGap/2
	legendArea.Max.Y -= p.Title.TextStyle.Height(p.Title.Text) + p.Title.Padding + vg.Points(6)
	legend.Draw(legendArea)
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// legendGap is the space between the plot and its legend.
const legendGap = vg.Length(16)

// legendWidth is the width the legend's entries take.
func legendWidth(l *plot.Legend) vg.Length {
	r := l.Rectangle(draw.Canvas{})
	return r.Max.X - r.Min.X
}

// Mean returns the mean of s's scores, the pooled mean libvmaf reports.
func (s Series) Mean() float64 {
	sum := 0.0
	for _, v := range s.Scores {
		sum += v
	}
	return sum / float64(len(s.Scores))
}

func (d *Data) check() error {
	n := 0
	for _, s := range d.Series {
		if len(s.Frames) != len(s.Scores) {
			return fmt.Errorf("plot: series %q has %d frames and %d scores", s.Name, len(s.Frames), len(s.Scores))
		}
		for _, v := range s.Scores {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("plot: series %q has a score that is not a number", s.Name)
			}
		}
		n += len(s.Scores)
	}
	if n == 0 {
		return ErrNoScores
	}
	return nil
}
