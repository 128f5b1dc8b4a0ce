package plot

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// textBox is a text's extent in the picture, in points from the top left.
type textBox struct {
	s              string
	x0, y0, x1, y1 float64
	rotated        bool
}

// svgTexts reads every text of an SVG plot with its extent: its width
// measured in the plot's font, from the baseline up to three quarters of
// the size (the digits' and capitals' height), so that boxes overlap
// only where glyphs would.
func svgTexts(t *testing.T, doc []byte) (texts []textBox, width, height float64) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var rotate []bool // per open element: whether it rotates
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			rot := strings.Contains(attr["transform"], "rotate") || (len(rotate) > 0 && rotate[len(rotate)-1])
			rotate = append(rotate, rot)
			switch el.Name.Local {
			case "svg":
				vb := strings.Fields(attr["viewBox"])
				width, _ = strconv.ParseFloat(vb[2], 64)
				height, _ = strconv.ParseFloat(vb[3], 64)
			case "text":
				var s string
				if err := dec.DecodeElement(&s, &el); err != nil {
					t.Fatal(err)
				}
				rotate = rotate[:len(rotate)-1]
				x, _ := strconv.ParseFloat(attr["x"], 64)
				y, _ := strconv.ParseFloat(attr["y"], 64)
				size := fontSize(attr["style"])
				// The plot's group flips y about the picture's height;
				// the text flips it back: the baseline is height+y
				// from the top.
				base := height + y
				w := textWidth(s, size)
				x0 := x
				if strings.Contains(attr["style"], "text-anchor:end") {
					x0 = x - w
				} else if strings.Contains(attr["style"], "text-anchor:middle") {
					x0 = x - w/2
				}
				texts = append(texts, textBox{s: s, x0: x0, y0: base - 0.75*size, x1: x0 + w, y1: base, rotated: rot})
			}
		case xml.EndElement:
			rotate = rotate[:len(rotate)-1]
		}
	}
	return texts, width, height
}

func fontSize(style string) float64 {
	_, after, ok := strings.Cut(style, "font-size:")
	if !ok {
		return 10
	}
	v, _ := strconv.ParseFloat(strings.TrimSuffix(strings.Split(after, ";")[0], "px"), 64)
	return v
}

// checkLayout fails on a text outside the picture or two texts that
// overlap.
func checkLayout(t *testing.T, name string, texts []textBox, w, h float64) {
	t.Helper()
	for i, a := range texts {
		if a.s == "" {
			continue
		}
		if !a.rotated && (a.x0 < 0 || a.x1 > w || a.y0 < 0 || a.y1 > h) {
			t.Errorf("%s: %q is cut by the picture's edge (%.1f,%.1f to %.1f,%.1f in %gx%g)", name, a.s, a.x0, a.y0, a.x1, a.y1, w, h)
		}
		for _, b := range texts[i+1:] {
			if a.rotated || b.rotated || b.s == "" {
				continue
			}
			// At least a point apart, so that no two read as one.
			if a.x0 < b.x1+1 && b.x0 < a.x1+1 && a.y0 < b.y1+1 && b.y0 < a.y1+1 {
				t.Errorf("%s: %q and %q overlap or touch", name, a.s, b.s)
			}
		}
	}
}

// busyData is a run with everything a plot labels crowded together:
// swaps every few frames, clustered worst frames, pauses, drops and
// windows, on a frame axis whose last tick is four digits wide.
func busyData(frames int) Data {
	var s1, s2 Series
	s1.Name, s2.Name = "vmaf_v0.6.1", "vmaf_4k_v0.6.1neg"
	for f := range frames {
		v := 80 + 10*math.Sin(float64(f)/7)
		if f%97 < 5 {
			v = 20 + float64(f%5)
		}
		s1.Frames, s1.Scores = append(s1.Frames, f), append(s1.Scores, v)
		s2.Frames, s2.Scores = append(s2.Frames, f), append(s2.Scores, v-3)
	}
	d := Data{Title: "encode_crf38_with_a_long_name.mp4 vs source_master.mov — vmaf_v0.6.1, vmaf_4k_v0.6.1neg",
		Series: []Series{s1, s2}, Worst: 12, Threshold: 60}
	for f := 10; f < frames; f += frames / 12 {
		d.Swaps = append(d.Swaps, Swap{Frame: f, To: "vmaf_v0.6.1neg"}, Swap{Frame: f + 2, To: "vmaf_v0.6.1"})
		d.Drops = append(d.Drops, Drop{First: f, Last: f + 4})
	}
	d.Pauses = []Pause{{From: frames / 3, To: frames/3 + 5}, {From: frames / 2, To: frames / 2}}
	for f := 0; f+24 <= frames; f += 24 {
		d.Windows = append(d.Windows, Window{First: f, Last: f + 23, Mean: 70})
	}
	return d
}

// A plot for a report: no text cut by the edge or drawn over another
// (labels that cannot be placed are left out), the legend right of the
// data, the title as given.
func TestLayoutNoOverlapNoClipping(t *testing.T) {
	for _, frames := range []int{60, 1501, 1920} {
		t.Run(fmt.Sprint(frames), func(t *testing.T) {
			var b bytes.Buffer
			d := busyData(frames)
			if err := Render(&b, SVG, d); err != nil {
				t.Fatal(err)
			}
			texts, w, h := svgTexts(t, b.Bytes())
			checkLayout(t, "busy", texts, w, h)
			var tickRight, legendLeft float64
			legendLeft = w
			seen := map[string]bool{}
			for _, tx := range texts {
				seen[tx.s] = true
				if _, err := strconv.Atoi(tx.s); err == nil {
					tickRight = max(tickRight, tx.x1)
				}
				if strings.Contains(tx.s, " mean ") || tx.s == "window mean" || strings.HasPrefix(tx.s, "alert threshold") {
					legendLeft = min(legendLeft, tx.x0)
				}
			}
			if legendLeft < tickRight {
				t.Errorf("legend starts at %.1f, inside the data (ticks reach %.1f)", legendLeft, tickRight)
			}
			if !seen[d.Title] || !seen["window mean"] {
				t.Errorf("title or window legend missing")
			}
			if frames > envelopeAbove && !seen[fmt.Sprintf("vmaf_v0.6.1 min–max of %d frames", (frames+envelopeColumns-1)/envelopeColumns)] {
				t.Errorf("a %d-frame run is not drawn as an envelope", frames)
			}
		})
	}
}

func TestLayoutPNG(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, PNG, busyData(1920)); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != 960 || r.Dy() != 432 {
		t.Errorf("PNG %v", r)
	}
}

// textWidth measures s in the plot's font at size points.
func textWidth(s string, size float64) float64 {
	sty := plot.New().Legend.TextStyle
	sty.Font.Size = vg.Points(size)
	return float64(sty.Width(s))
}
