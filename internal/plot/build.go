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
	"gonum.org/v1/plot/text"
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
	// Room above the highest score for the legend (two entries a model),
	// below the lowest for the marks' labels, and at least a point of
	// range so a flat series is not drawn on the frame.
	span := max(ymax-ymin, 1)
	bottom := 0.08
	top := min(0.55, float64(2*len(d.Series))*legendRow/plotRows+0.04)
	r := span / (1 - bottom - top)
	ymin, ymax = ymin-bottom*r, ymax+top*r
	x0, x1 := float64(xmin)-0.5, float64(xmax)+0.5

	p := plot.New()
	p.Title.Text = d.Title
	p.X.Label.Text = "frame"
	p.Y.Label.Text = "score"
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Legend.XOffs = vg.Points(6)
	p.X.Tick.Marker = frameTicks{}
	p.Add(plotter.NewGrid())
	p.X.Min, p.X.Max = x0, x1

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
	for _, sw := range d.Swaps {
		if err := addMark(p, float64(sw.Frame)-0.5, ymin, ymax, "→ "+sw.To, 0); err != nil {
			return nil, err
		}
	}
	for i, s := range d.Series {
		if len(s.Scores) == 0 {
			continue
		}
		if err := addSeries(p, s, plotutil.Color(i)); err != nil {
			return nil, err
		}
	}
	if err := addWorst(p, d.Series, worstCount(d.Worst), x0, x1, ymin, ymax); err != nil {
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

// addMark draws a vertical line at x with a label at its foot, raised by
// dy.
func addMark(p *plot.Plot, x, ymin, ymax float64, label string, dy vg.Length) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x, Y: ymin}, {X: x, Y: ymax}})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	l.Color = markColor
	l.Width = vg.Points(1)
	l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: ymin}}, Labels: []string{label}})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	lb.Offset = vg.Point{X: vg.Points(3), Y: vg.Points(3) + dy}
	if x > p.X.Max-0.1*(p.X.Max-p.X.Min) {
		// Near the right edge the label goes left of its line.
		lb.Offset.X = -vg.Points(3)
		lb.TextStyle[0].XAlign = text.XRight
	}
	p.Add(l, lb)
	return nil
}

// addPause shades the frames a pause skipped, or marks the boundary a
// pause that skipped nothing held the input at.
func addPause(p *plot.Plot, pa Pause, xEnd, ymin, ymax float64) error {
	from, to := float64(pa.From)-0.5, float64(pa.To)-0.5
	if pa.To < 0 {
		to = xEnd
	}
	label := cmp.Or(pa.Label, "paused")
	if to <= from {
		return addMark(p, from, ymin, ymax, label, vg.Points(12))
	}
	poly, err := plotter.NewPolygon(plotter.XYs{{X: from, Y: ymin}, {X: to, Y: ymin}, {X: to, Y: ymax}, {X: from, Y: ymax}})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	poly.Color = pauseShade
	poly.LineStyle.Width = 0
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: from, Y: ymin}}, Labels: []string{label}})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	lb.Offset = vg.Point{X: vg.Points(3), Y: vg.Points(15)}
	p.Add(poly, lb)
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

// addWorst marks the worst frames and labels them. Each label takes the
// first place, right of its point and alternately above and below it,
// where it overlaps no label placed before.
func addWorst(p *plot.Plot, ss []Series, n int, x0, x1, y0, y1 float64) error {
	pts := worst(ss, n)
	if len(pts) == 0 {
		return nil
	}
	xys := make(plotter.XYs, len(pts))
	for i, pt := range pts {
		xys[i] = plotter.XY{X: float64(pt.frame), Y: pt.score}
	}
	sc, err := plotter.NewScatter(xys)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: color.RGBA{R: 200, A: 255}, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
	p.Add(sc)

	// Where things land, in points, estimated from the plot area's size.
	xPt := dataWidth / max(x1-x0, 1)
	yPt := plotRows / max(y1-y0, 1e-9)
	var placed []box
	for _, pt := range pts {
		label := WorstLabel(pt.frame, pt.score)
		px, py := (float64(pt.frame)-x0)*xPt, (pt.score-y0)*yPt
		w := float64(len(label)) * labelChar
		var dy float64
		for try := 0; ; try++ {
			dy = 1 + 9*float64((try+1)/2)
			if try%2 == 1 {
				dy = -10 - 9*float64(try/2)
			}
			b := box{px + 4, py + dy, px + 4 + w, py + dy + labelHigh}
			if try == 8 || !slices.ContainsFunc(placed, b.overlaps) {
				placed = append(placed, b)
				break
			}
		}
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: float64(pt.frame), Y: pt.score}}, Labels: []string{label}})
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		lb.Offset = vg.Point{X: vg.Points(4), Y: vg.Points(dy)}
		lb.TextStyle[0].Font.Size = vg.Points(8)
		p.Add(lb)
	}
	return nil
}

// box is a label's extent in points.
type box struct{ x0, y0, x1, y1 float64 }

func (a box) overlaps(b box) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }

// Layout, in points: a legend row's height, and the plot area's height
// and width (the picture less title and axes).
const (
	legendRow = 11.0
	plotRows  = 260.0
	dataWidth = 880.0
	labelChar = 4.6 // a character's width at 8 points
	labelHigh = 8.0 // and its height
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
