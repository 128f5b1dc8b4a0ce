package plot

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"strings"
	"testing"
)

// known is two models over 60 frames, a swap at 30 and a pause that
// skipped frames 40-44, with its worst frames at 7, 23, 41 (skipped, so
// absent), 50 and 51.
func known() Data {
	a := Series{Name: "vmaf"}
	b := Series{Name: "vmaf_neg"}
	for f := range 60 {
		if f >= 40 && f < 45 {
			continue
		}
		v := 90 + 5*math.Sin(float64(f)/5)
		switch f {
		case 7:
			v = 61.25
		case 23:
			v = 70.5
		case 50:
			v = 66.125
		case 51:
			v = 68
		}
		a.Frames = append(a.Frames, f)
		a.Scores = append(a.Scores, v)
		b.Frames = append(b.Frames, f)
		b.Scores = append(b.Scores, v+1)
	}
	return Data{Title: "known", Series: []Series{a, b}, Swaps: []Swap{{Frame: 30, To: "vmaf_v0.6.1neg"}},
		Pauses: []Pause{{From: 40, To: 45}, {From: 55, To: 55}}}
}

func TestWorst(t *testing.T) {
	got := worst(known().Series, 5)
	want := []point{{7, 61.25}, {50, 66.125}, {51, 68}, {23, 70.5}}
	if len(got) != 5 {
		t.Fatalf("worst 5: got %v", got)
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("worst[%d] = %v, want %v", i, got[i], w)
		}
	}
	if n := len(worst(known().Series, 1000)); n != 55 {
		t.Errorf("worst over every frame: %d points, want 55 (each frame once)", n)
	}
}

func TestRenderSVG(t *testing.T) {
	var buf bytes.Buffer
	if err := Render(&buf, SVG, known()); err != nil {
		t.Fatal(err)
	}
	svg := buf.String()
	if !strings.HasPrefix(strings.TrimSpace(svg), "<?xml") || !strings.Contains(svg, "<svg") {
		t.Fatalf("not an SVG document: %.200s", svg)
	}
	for _, want := range []string{
		">vmaf<", ">vmaf_neg<", // legend: the model names
		"vmaf mean ", "vmaf_neg mean ",
		"→ vmaf_v0.6.1neg", ">paused<",
		WorstLabel(7, 61.25), WorstLabel(50, 66.125), WorstLabel(51, 68), WorstLabel(23, 70.5),
		">known<", ">frame<", ">score<",
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if strings.Contains(svg, WorstLabel(41, 0)[:4]+" ") {
		t.Errorf("SVG labels frame 41, which no series has")
	}
}

func TestRenderPNG(t *testing.T) {
	var buf bytes.Buffer
	if err := Render(&buf, PNG, known()); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 960 || b.Dy() != 432 {
		t.Errorf("PNG is %dx%d, want 960x432", b.Dx(), b.Dy())
	}
	// Something was drawn: not every pixel is the background.
	first := img.At(0, 0)
	drawn := false
	for y := 0; y < img.Bounds().Dy() && !drawn; y += 3 {
		for x := 0; x < img.Bounds().Dx(); x += 3 {
			if img.At(x, y) != first {
				drawn = true
				break
			}
		}
	}
	if !drawn {
		t.Error("PNG is blank")
	}
}

func TestRenderRefuses(t *testing.T) {
	cases := []struct {
		name string
		d    Data
		f    Format
	}{
		{"no series", Data{}, SVG},
		{"empty series", Data{Series: []Series{{Name: "vmaf"}}}, SVG},
		{"lengths differ", Data{Series: []Series{{Name: "vmaf", Frames: []int{0, 1}, Scores: []float64{1}}}}, SVG},
		{"NaN", Data{Series: []Series{{Name: "vmaf", Frames: []int{0}, Scores: []float64{math.NaN()}}}}, PNG},
		{"format", known(), Format("pdf")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Render(&buf, c.f, c.d); err == nil {
				t.Error("no error")
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %d bytes", buf.Len())
			}
		})
	}
}

func TestFormatOf(t *testing.T) {
	cases := []struct {
		path string
		want Format
		ok   bool
	}{
		{"a.svg", SVG, true},
		{"dir.x/A.SVG", SVG, true},
		{"a.png", PNG, true},
		{"a.Png", PNG, true},
		{"a.pdf", "", false},
		{"a.svg.txt", "", false},
		{"svg", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		got, err := FormatOf(c.path)
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("FormatOf(%q) = %q, %v; want %q, ok %v", c.path, got, err, c.want, c.ok)
		}
	}
}

// A single frame, or a flat series, still draws.
func TestRenderDegenerate(t *testing.T) {
	for _, d := range []Data{
		{Series: []Series{{Name: "vmaf", Frames: []int{3}, Scores: []float64{97}}}},
		{Series: []Series{{Name: "vmaf", Frames: []int{0, 1, 2}, Scores: []float64{100, 100, 100}}}, Pauses: []Pause{{From: 2, To: -1}}},
	} {
		var buf bytes.Buffer
		if err := Render(&buf, SVG, d); err != nil {
			t.Error(err)
		}
	}
}

// TestSegments: a line breaks only where frames are further apart than
// the series' step, so a subsampled run is still a line.
func TestSegments(t *testing.T) {
	cases := []struct {
		frames []int
		want   string
	}{
		{nil, "[]"},
		{[]int{4}, "[[0 1]]"},
		{[]int{0, 1, 2, 3}, "[[0 4]]"},
		{[]int{0, 1, 5, 6, 9}, "[[0 2] [2 4] [4 5]]"},
		{[]int{0, 5, 10, 15}, "[[0 4]]"},             // --subsample 5
		{[]int{0, 5, 10, 30, 35}, "[[0 3] [3 5]]"},   // subsampled, with a pause
		{[]int{100, 102, 103, 104}, "[[0 1] [1 4]]"}, // the step is the smallest gap
	}
	for _, c := range cases {
		if got := fmt.Sprint(segments(c.frames)); got != c.want {
			t.Errorf("segments(%v) = %s, want %s", c.frames, got, c.want)
		}
	}
}

// TestThresholdAndDrops: the threshold is in view even below every score,
// is in the legend, and each drop is one shaded area.
func TestThresholdAndDrops(t *testing.T) {
	d := known()
	d.Threshold = 40
	d.Drops = []Drop{{First: 7, Last: 7}, {First: 50, Last: 51}}
	p, err := build(d)
	if err != nil {
		t.Fatal(err)
	}
	if p.Y.Min > 40 {
		t.Errorf("y axis from %v, above the threshold", p.Y.Min)
	}
	var svg bytes.Buffer
	if err := Render(&svg, SVG, d); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(svg.String(), "alert threshold 40") {
		t.Error("no threshold in the legend")
	}
	// dropShade's alpha, 45/255, is the fill opacity of the drops only.
	if n := strings.Count(svg.String(), "fill-opacity:0.176"); n != len(d.Drops) {
		t.Errorf("%d shaded drops, want %d", n, len(d.Drops))
	}
	plain, err := build(known())
	if err != nil {
		t.Fatal(err)
	}
	if plain.Y.Min <= 40 {
		t.Errorf("without a threshold the y axis starts at %v", plain.Y.Min)
	}
}
