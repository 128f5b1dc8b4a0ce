package plot

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var (
	markColor  = color.Gray{Y: 90}
	pauseShade = color.NRGBA{R: 160, G: 160, B: 160, A: 70}
	dropShade  = color.NRGBA{R: 230, G: 60, B: 40, A: 45}
	alertColor = color.RGBA{R: 200, G: 30, B: 20, A: 255}
)

// build lays the plot out: the score lines first, the means over them,
// then the marks and the labels on top.
func build(d Data) (*plot.Plot, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	xmin, xmax, ymin, ymax := extent(d.Series)
	if d.Threshold > 0 {
		// The threshold is in view even when every score is above it.
		ymin, ymax = min(ymin, d.Threshold), max(ymax, d.Threshold)
	}
	// Room below the lowest score for the marks' labels, a little above
	// the highest, and at least a point of range so a flat series is not
	// drawn on the frame. The legend is outside the data (Render).
	span := max(ymax-ymin, 1)
	bottom := 0.08 + 0.06*float64(min(len(d.Swaps), 4))
	top := 0.06
	r := span / (1 - bottom - top)
	ymin, ymax = ymin-bottom*r, ymax+top*r
	x0, x1 := float64(xmin)-0.5, float64(xmax)+0.5

	p := plot.New()
	p.Title.Text = d.Title
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = "frame"
	p.Y.Label.Text = "score"
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Legend.Padding = vg.Points(2)
	p.X.Tick.Marker = frameTicks{}
	p.Add(plotter.NewGrid())
	p.X.Min, p.X.Max = x0, x1

	// Shades first, then the lines and the legend entries they make;
	// the labels last, laid out once the legend's width (and so the
	// data's) is known, each where it overlaps no other.
	for _, pa := range d.Pauses {
		if err := addPause(p, pa, x1, ymin, ymax); err != nil {
			return nil, err
		}
	}
	for _, dr := range d.Drops {
		if err := addDrop(p, dr, ymin, ymax); err != nil {
			return nil, err
		}
	}
	if d.Threshold > 0 {
		if err := addThreshold(p, d.Threshold, x0, x1); err != nil {
			return nil, err
		}
	}
	if err := addWindows(p, d.Windows); err != nil {
		return nil, err
	}
	for i, s := range d.Series {
		if len(s.Scores) == 0 {
			continue
		}
		if err := addSeries(p, s, plotutil.Color(i)); err != nil {
			return nil, err
		}
	}
	lay := newLayout(p, x0, x1, ymin, ymax)
	for _, pa := range d.Pauses {
		if err := lay.pauseLabel(p, pa); err != nil {
			return nil, err
		}
	}
	if err := lay.addSwaps(p, d.Swaps); err != nil {
		return nil, err
	}
	if err := lay.addWorst(p, d.Series, worstCount(d.Worst)); err != nil {
		return nil, err
	}
	p.X.Min, p.X.Max = x0, x1
	p.Y.Min, p.Y.Max = ymin, ymax
	return p, nil
}

func worstCount(n int) int {
	switch {
	case n == 0:
		return DefaultWorst
	case n < 0:
		return 0
	}
	return n
}

func extent(ss []Series) (xmin, xmax int, ymin, ymax float64) {
	xmin, xmax = math.MaxInt, math.MinInt
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		for i, f := range s.Frames {
			xmin, xmax = min(xmin, f), max(xmax, f)
			ymin, ymax = min(ymin, s.Scores[i]), max(ymax, s.Scores[i])
		}
	}
	return xmin, xmax, ymin, ymax
}

// addSeries draws a model's scores and its pooled mean, dashed, in the
// same colour.
// A line breaks where frames are missing (skipped while paused, dropped,
// or not among the records kept), so no score is drawn for them: where
// two frames are further apart than the series' usual step (1, or the
// subsampling interval). A frame alone between two breaks is a dot.
func addSeries(p *plot.Plot, s Series, c color.Color) error {
	if len(s.Frames) > envelopeAbove {
		return addEnvelope(p, s, c)
	}
	var line *plotter.Line
	for _, seg := range segments(s.Frames) {
		start, end := seg[0], seg[1]
		if end-start == 1 {
			dot, err := plotter.NewScatter(plotter.XYs{{X: float64(s.Frames[start]), Y: s.Scores[start]}})
			if err != nil {
				return fmt.Errorf("plot: %s: %w", s.Name, err)
			}
			dot.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(1.5), Shape: draw.CircleGlyph{}}
			p.Add(dot)
		}
		xys := make(plotter.XYs, end-start)
		for i := range xys {
			xys[i] = plotter.XY{X: float64(s.Frames[start+i]), Y: s.Scores[start+i]}
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return fmt.Errorf("plot: %s: %w", s.Name, err)
		}
		l.Color = c
		l.Width = vg.Points(1.2)
		p.Add(l)
		if line == nil {
			line = l
		}
	}
	mean := s.Mean()
	first, last := float64(s.Frames[0]), float64(s.Frames[len(s.Frames)-1])
	ml, err := plotter.NewLine(plotter.XYs{{X: first, Y: mean}, {X: last, Y: mean}})
	if err != nil {
		return fmt.Errorf("plot: %s: %w", s.Name, err)
	}
	ml.Color = c
	ml.Width = vg.Points(1)
	ml.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	p.Add(ml)
	p.Legend.Add(s.Name, line)
	p.Legend.Add(fmt.Sprintf("%s mean %.3f", s.Name, mean), ml)
	return nil
}

// segments splits frames into runs [start, end) whose consecutive frames
// are at most the usual step apart: the smallest distance between two
// consecutive frames (at least 1).
func segments(frames []int) [][2]int {
	step := 0
	for i := 1; i < len(frames); i++ {
		if d := frames[i] - frames[i-1]; d > 0 && (step == 0 || d < step) {
			step = d
		}
	}
	step = max(step, 1)
	var segs [][2]int
	for start := 0; start < len(frames); {
		end := start + 1
		for end < len(frames) && frames[end]-frames[end-1] <= step {
			end++
		}
		segs = append(segs, [2]int{start, end})
		start = end
	}
	return segs
}

// addMark draws a dashed vertical line at x.
func addMark(p *plot.Plot, x, ymin, ymax float64) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x, Y: ymin}, {X: x, Y: ymax}})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	l.Color = markColor
	l.Width = vg.Points(1)
	l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
	p.Add(l)
	return nil
}

// addPause shades the frames a pause skipped, or marks the boundary a
// pause that skipped nothing held the input at.
func addPause(p *plot.Plot, pa Pause, xEnd, ymin, ymax float64) error {
	from, to := float64(pa.From)-0.5, float64(pa.To)-0.5
	if pa.To < 0 {
		to = xEnd
	}
	if to <= from {
		return addMark(p, from, ymin, ymax)
	}
	poly, err := plotter.NewPolygon(plotter.XYs{{X: from, Y: ymin}, {X: to, Y: ymin}, {X: to, Y: ymax}, {X: from, Y: ymax}})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	poly.Color = pauseShade
	poly.LineStyle.Width = 0
	p.Add(poly)
	return nil
}

// addDrop shades the frames of a quality drop.
func addDrop(p *plot.Plot, dr Drop, ymin, ymax float64) error {
	from, to := float64(dr.First)-0.5, float64(dr.Last)+0.5
	poly, err := plotter.NewPolygon(plotter.XYs{{X: from, Y: ymin}, {X: to, Y: ymin}, {X: to, Y: ymax}, {X: from, Y: ymax}})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	poly.Color = dropShade
	poly.LineStyle.Width = 0
	p.Add(poly)
	return nil
}

// addThreshold draws the alert threshold across the plot, dotted.
func addThreshold(p *plot.Plot, th, x0, x1 float64) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: th}, {X: x1, Y: th}})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	l.Color = alertColor
	l.Width = vg.Points(1)
	l.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2)}
	p.Add(l)
	p.Legend.Add(fmt.Sprintf("alert threshold %s", strconv.FormatFloat(th, 'f', -1, 64)), l)
	return nil
}

// point is one frame's score in one series.
type point struct {
	frame int
	score float64
}

// worst returns the n lowest scores over all series, lowest first, the
// earlier frame first among equal scores; a frame scored by several
// models counts once, with its lowest score.
func worst(ss []Series, n int) []point {
	lowest := map[int]float64{}
	for _, s := range ss {
		for i, f := range s.Frames {
			if v, ok := lowest[f]; !ok || s.Scores[i] < v {
				lowest[f] = s.Scores[i]
			}
		}
	}
	pts := make([]point, 0, len(lowest))
	for f, v := range lowest {
		pts = append(pts, point{f, v})
	}
	slices.SortFunc(pts, func(a, b point) int {
		return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.frame, b.frame))
	})
	return pts[:min(n, len(pts))]
}

// WorstLabel is the label of a worst frame.
func WorstLabel(frame int, score float64) string { return fmt.Sprintf("#%d %.2f", frame, score) }

// box is a label's extent in points.
type box struct{ x0, y0, x1, y1 float64 }

func (a box) overlaps(b box) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }

// Layout, in points: the data area's height (the picture less title and
// axis) and the room the score axis takes left of it.
const (
	plotRows  = 260.0
	yAxisRoom = 48.0
	labelHigh = 8.0 // a worst frame's label's height
)

// frameTicks labels the frame axis with whole frame numbers only.
type frameTicks struct{}

func (frameTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if v := ticks[i].Value; ticks[i].IsMinor() || v != math.Trunc(v) {
			ticks[i].Label = ""
		} else {
			ticks[i].Label = strconv.Itoa(int(v))
		}
	}
	return ticks
}
