package control

import (
	"fmt"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf"
)

// component is one VMAF ingredient a drop can be blamed on.
type component struct {
	label string   // what it means to a reader
	names []string // feature names that measure it, integer first
}

var components = []component{
	{"detail loss (ADM)", []string{"integer_adm2", "adm2"}},
	{"artefacts, fine scale (VIF scale 0)", []string{"integer_vif_scale0", "vif_scale0"}},
	{"blur, coarse scales (VIF scales 1-3)", []string{"integer_vif_scale1", "vif_scale1", "integer_vif_scale2", "vif_scale2", "integer_vif_scale3", "vif_scale3"}},
	{"motion (reference)", []string{"integer_motion2", "motion2"}},
}

// diagnosis compares frames inside a range with the other frames at hand.
type diagnosis struct {
	from, to        int64
	inside, outside int
	haveFrom        int64 // oldest frame available
	haveTo          int64
	score           [2]float64 // mean inside, outside
	comp            [][2]float64
	found           []bool
}

func diagnose(recs []Record, from, to int64) diagnosis {
	d := diagnosis{from: from, to: to, comp: make([][2]float64, len(components)), found: make([]bool, len(components))}
	if len(recs) == 0 {
		return d
	}
	d.haveFrom, d.haveTo = recs[0].Frame, recs[len(recs)-1].Frame
	counts := make([][2]int, len(components))
	for _, r := range recs {
		side := 1
		if r.Frame >= from && r.Frame <= to {
			side = 0
			d.inside++
		} else {
			d.outside++
		}
		d.score[side] += r.Score
		for i, c := range components {
			if v, ok := componentValue(r.Features, c); ok {
				d.comp[i][side] += v
				counts[i][side]++
				d.found[i] = true
			}
		}
	}
	for side, n := range []int{d.inside, d.outside} {
		if n > 0 {
			d.score[side] /= float64(n)
		}
	}
	for i := range components {
		for side := range 2 {
			if counts[i][side] > 0 {
				d.comp[i][side] /= float64(counts[i][side])
			}
		}
	}
	return d
}

// componentValue averages the names present that the first one's
// extractor reports (integer features when the model has them, float
// otherwise).
func componentValue(f map[string]float64, c component) (float64, bool) {
	sum, n := 0.0, 0
	family := ""
	for _, name := range c.names {
		v, ok := f[name]
		if !ok {
			continue
		}
		src, _ := vmaf.FeatureExtractor(name)
		if n > 0 && src.Extractor != family {
			continue
		}
		family = src.Extractor
		sum += v
		n++
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// lead returns the non-motion component with the largest relative fall
// inside the range, or -1.
func (d diagnosis) lead() (int, float64) {
	best, worst := -1, 0.0
	for i, c := range components {
		if !d.found[i] || strings.HasPrefix(c.label, "motion") || d.comp[i][1] == 0 {
			continue
		}
		rel := (d.comp[i][0] - d.comp[i][1]) / d.comp[i][1]
		if rel < worst {
			best, worst = i, rel
		}
	}
	return best, worst
}

func (d diagnosis) String() string {
	var b strings.Builder
	if d.inside == 0 {
		if d.haveTo == 0 && d.outside == 0 {
			b.WriteString("No scored frames are available yet.\n")
		} else {
			fmt.Fprintf(&b, "Frames %d..%d are not among the recent records kept (frames %d..%d); only pooled statistics remain for them.\n", d.from, d.to, d.haveFrom, d.haveTo)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%d frames inside the range, %d recent frames outside it for comparison.\n", d.inside, d.outside)
	fmt.Fprintf(&b, "%-40s %10s %10s %9s\n", "", "inside", "outside", "change")
	row := func(label string, in, out float64, have bool) {
		if !have {
			return
		}
		if d.outside == 0 || out == 0 {
			fmt.Fprintf(&b, "%-40s %10.4f %10s %9s\n", label, in, "-", "-")
			return
		}
		fmt.Fprintf(&b, "%-40s %10.4f %10.4f %+8.1f%%\n", label, in, out, 100*(in-out)/out)
	}
	row("VMAF score", d.score[0], d.score[1], true)
	for i, c := range components {
		row(c.label, d.comp[i][0], d.comp[i][1], d.found[i])
	}
	if i, rel := d.lead(); i >= 0 && d.outside > 0 {
		fmt.Fprintf(&b, "Largest relative fall: %s, %.1f%%.\n", components[i].label, 100*rel)
	}
	return b.String()
}
