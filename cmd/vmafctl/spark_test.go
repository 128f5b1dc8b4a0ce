package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestSparkline: the levels span the values' own range, so a swing of a
// few points uses every level, and a range narrower than minSparkSpan is
// widened about its middle.
func TestSparkline(t *testing.T) {
	cases := []struct {
		name   string
		vals   []float64
		want   string
		lo, hi float64
	}{
		{"none", nil, "", 0, 0},
		{"93 to 98", []float64{93, 94, 95, 96, 97, 98}, "▁▂▄▅▇█", 93, 98},
		{"high plateau", []float64{97.5, 97.5, 97.65, 97.4, 99, 97.5}, "▁▁▂▁█▁", 97.4, 99},
		{"full range", []float64{0, 12.5, 50, 99.9, 100}, "▁▂▅██", 0, 100},
		{"below zero and over 100", []float64{-5, 250}, "▁█", -5, 250},
		{"flat", []float64{50, 50, 50}, "▅▅▅", 49.5, 50.5},
		{"narrower than a point", []float64{98.2, 98.6}, "▃▆", 97.9, 98.9},
		{"one value", []float64{93}, "▅", 92.5, 93.5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			lo, hi := sparkline(&b, c.vals)
			if b.String() != c.want {
				t.Errorf("sparkline %q, want %q", b.String(), c.want)
			}
			if !near(lo, c.lo) || !near(hi, c.hi) {
				t.Errorf("scale %g–%g, want %g–%g", lo, hi, c.lo, c.hi)
			}
		})
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestSparkShowsScale: the watch line's sparkline is padded to its width
// and followed by its scale.
func TestSparkShowsScale(t *testing.T) {
	p := newPrinter(&bytes.Buffer{}, false, false)
	for _, v := range []float64{93, 98, 95.5} {
		p.recent[p.n%sparkWidth] = v
		p.n++
	}
	want := "▁█▅" + strings.Repeat(" ", sparkWidth-3) + " [93.00–98.00]"
	if got := p.sparkOf(sparkWidth); got != want {
		t.Errorf("spark = %q, want %q", got, want)
	}
	// The oldest scores leave the window and the scale with it.
	for range sparkWidth {
		p.recent[p.n%sparkWidth] = 80
		p.n++
	}
	if got := p.sparkOf(sparkWidth); !strings.HasSuffix(got, " [79.50–80.50]") || strings.ContainsAny(got, "▁█") {
		t.Errorf("spark after the window moved = %q", got)
	}
}
