package plot

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// envelopeAbove is how many frames a series may have before it is drawn
// as the band between each column's lowest and highest score with the
// column's mean as the line: more frames than the plot has columns draw
// as a solid band otherwise.
const envelopeAbove = 600

// envelopeColumns is how many columns a long series is summarised in.
const envelopeColumns = 300

// addEnvelope draws a long series as its per-column min–max band and
// mean line, and its pooled mean, dashed.
func addEnvelope(p *plot.Plot, s Series, c color.Color) error {
	first, last := s.Frames[0], s.Frames[len(s.Frames)-1]
	width := float64(last-first+1) / envelopeColumns
	type column struct {
		lo, hi, sum float64
		n           int
	}
	cols := make([]column, envelopeColumns)
	for i, f := range s.Frames {
		k := min(int(float64(f-first)/width), envelopeColumns-1)
		col := &cols[k]
		v := s.Scores[i]
		if col.n == 0 {
			col.lo, col.hi = v, v
		}
		col.lo, col.hi = min(col.lo, v), max(col.hi, v)
		col.sum += v
		col.n++
	}
	var lows, highs, means plotter.XYs
	for k, col := range cols {
		if col.n == 0 {
			continue
		}
		x := float64(first) + (float64(k)+0.5)*width
		lows = append(lows, plotter.XY{X: x, Y: col.lo})
		highs = append(highs, plotter.XY{X: x, Y: col.hi})
		means = append(means, plotter.XY{X: x, Y: col.sum / float64(col.n)})
	}
	band := append(lows, reversed(highs)...)
	poly, err := plotter.NewPolygon(band)
	if err != nil {
		return fmt.Errorf("plot: %s: %w", s.Name, err)
	}
	r, g, b, _ := c.RGBA()
	poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 70}
	poly.LineStyle.Width = 0
	line, err := plotter.NewLine(means)
	if err != nil {
		return fmt.Errorf("plot: %s: %w", s.Name, err)
	}
	line.Color = c
	line.Width = vg.Points(1.2)
	mean := s.Mean()
	ml, err := plotter.NewLine(plotter.XYs{{X: float64(first), Y: mean}, {X: float64(last), Y: mean}})
	if err != nil {
		return fmt.Errorf("plot: %s: %w", s.Name, err)
	}
	ml.Color = c
	ml.Width = vg.Points(1)
	ml.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	p.Add(poly, line, ml)
	per := int(math.Ceil(width))
	p.Legend.Add(fmt.Sprintf("%s (mean of %d frames)", s.Name, per), line)
	p.Legend.Add(fmt.Sprintf("%s min–max of %d frames", s.Name, per), poly)
	p.Legend.Add(fmt.Sprintf("%s mean %.3f", s.Name, mean), ml)
	return nil
}

func reversed(xys plotter.XYs) plotter.XYs {
	out := slices.Clone(xys)
	slices.Reverse(out)
	return out
}

// layout places the labels: where each lands is estimated in points
// from the data area's size, and a label goes to the first place where
// it overlaps none placed before, or is left out.
type layout struct {
	x0, x1, y0, y1 float64
	xPt, yPt       float64 // points per frame, per score point
	width          float64 // of the data area
	placed         []box
}

func newLayout(p *plot.Plot, x0, x1, y0, y1 float64) *layout {
	width := float64(Width) - yAxisRoom - float64(legendWidth(&p.Legend)) - float64(legendGap)
	return &layout{x0: x0, x1: x1, y0: y0, y1: y1, width: width,
		xPt: width / max(x1-x0, 1), yPt: plotRows / max(y1-y0, 1e-9)}
}

// footRows is how many rows of labels the foot of the plot has.
const footRows = 4

// footLabel draws label at the foot of the mark at x: right of it (left
// near the right edge), on the first row where it overlaps nothing.
func (l *layout) footLabel(p *plot.Plot, x float64, label string) error {
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: l.y0}}, Labels: []string{label}})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	w := float64(lb.TextStyle[0].Width(label))
	px := (x - l.x0) * l.xPt
	dx := 3.0
	if px+dx+w > l.width {
		dx = -3 - w
	}
	for r := 0; r < footRows; r++ {
		dy := 3 + float64(r)*markRow
		b := box{px + dx, dy, px + dx + w, dy + markRow - 2}
		if b.x0 < 0 || slices.ContainsFunc(l.placed, b.padded(labelPad).overlaps) {
			continue
		}
		l.placed = append(l.placed, b)
		lb.Offset = vg.Point{X: vg.Points(dx), Y: vg.Points(dy)}
		p.Add(lb)
		return nil
	}
	return nil // no room: the mark stays, its label goes
}

func (l *layout) pauseLabel(p *plot.Plot, pa Pause) error {
	return l.footLabel(p, float64(pa.From)-0.5, cmp.Or(pa.Label, "paused"))
}

// addSwaps draws a line at each swap, labelled with the model it swaps
// to.
func (l *layout) addSwaps(p *plot.Plot, swaps []Swap) error {
	for _, sw := range swaps {
		x := float64(sw.Frame) - 0.5
		if err := addMark(p, x, l.y0, l.y1); err != nil {
			return err
		}
		if err := l.footLabel(p, x, "→ "+sw.To); err != nil {
			return err
		}
	}
	return nil
}

// A foot label's row height, in points.
const markRow = 13.0

// addWorst marks the worst frames and labels them: right of the point
// (left near the right edge), alternately above and below it, further
// each time; a label with no free place is left out, its point stays.
func (l *layout) addWorst(p *plot.Plot, ss []Series, n int) error {
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
	for _, pt := range pts { // the points themselves stay clear of labels
		px, py := (float64(pt.frame)-l.x0)*l.xPt, (pt.score-l.y0)*l.yPt
		l.placed = append(l.placed, box{px - 2.5, py - 2.5, px + 2.5, py + 2.5})
	}
	for _, pt := range pts {
		label := WorstLabel(pt.frame, pt.score)
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: float64(pt.frame), Y: pt.score}}, Labels: []string{label}})
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		lb.TextStyle[0].Font.Size = vg.Points(8)
		w := float64(lb.TextStyle[0].Width(label))
		px, py := (float64(pt.frame)-l.x0)*l.xPt, (pt.score-l.y0)*l.yPt
		dx := 4.0
		if px+dx+w > l.width {
			dx = -4 - w
		}
		for try := 0; try < 8; try++ {
			dy := 1 + 9*float64((try+1)/2)
			if try%2 == 1 {
				dy = -10 - 9*float64(try/2)
			}
			b := box{px + dx, py + dy, px + dx + w, py + dy + labelHigh}
			if b.y0 < 0 || b.y1 > plotRows || slices.ContainsFunc(l.placed, b.padded(labelPad).overlaps) {
				continue
			}
			l.placed = append(l.placed, b)
			lb.Offset = vg.Point{X: vg.Points(dx), Y: vg.Points(dy)}
			p.Add(lb)
			break
		}
	}
	return nil
}

// addWindows draws each window's mean across its frames.
func addWindows(p *plot.Plot, ws []Window) error {
	if len(ws) == 0 {
		return nil
	}
	var first *plotter.Line
	for _, w := range ws {
		l, err := plotter.NewLine(plotter.XYs{{X: float64(w.First) - 0.5, Y: w.Mean}, {X: float64(w.Last) + 0.5, Y: w.Mean}})
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		l.Color = windowColor
		l.Width = vg.Points(2.5)
		p.Add(l)
		if first == nil {
			first = l
		}
	}
	p.Legend.Add("window mean", first)
	return nil
}

var windowColor = color.NRGBA{R: 40, G: 40, B: 40, A: 150}

// labelPad is the clearance kept around a label, in points: the places
// are estimates, and labels that touch read as one.
const labelPad = 3.0

func (a box) padded(d float64) box { return box{a.x0 - d, a.y0 - d, a.x1 + d, a.y1 + d} }
