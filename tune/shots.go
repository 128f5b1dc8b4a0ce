package tune

import (
	"fmt"
	"math"
	"slices"

	"github.com/vmafsink/vmafsink/vmaf"
)

// ShotDetection is how shot boundaries are found: a cut where the luma
// histograms of consecutive frames (64 bins over every second sample of
// every second row) differ by more than Threshold in total variation
// distance (half the L1 distance of the normalised histograms, from 0
// for equal histograms to 1 for disjoint ones), by more than Ratio times
// the median distance over the second before (so steady fast motion is
// no cut), and at least MinSeconds after the previous cut.
type ShotDetection struct {
	Threshold  float64 `json:"threshold"`
	Ratio      float64 `json:"ratio"`
	MinSeconds float64 `json:"min_shot_seconds"`
}

// DefaultShotDetection's threshold is some ten times the change a pan
// makes between two frames; a cut between scenes, even of like colours,
// changes more.
var DefaultShotDetection = ShotDetection{Threshold: 0.1, Ratio: 5, MinSeconds: 0.5}

// Method describes the detection for a reader of the plan.
func (d ShotDetection) Method() string {
	return fmt.Sprintf("luma histogram difference: 64-bin histograms of every second sample of every second row, "+
		"a cut where consecutive frames' total variation distance exceeds %g and %g times its median over the second before, "+
		"at least %g s after the previous cut", d.Threshold, d.Ratio, d.MinSeconds)
}

const histBins = 64

func lumaHistogram(p *vmaf.Picture) [histBins]float64 {
	var h [histBins]float64
	shift := uint(p.BitDepth - 6)
	n := 0
	for y := 0; y < p.Height; y += 2 {
		row := p.Planes[0][y*p.Strides[0]:]
		for x := 0; x < p.Width; x += 2 {
			var v int
			if p.BitDepth > 8 {
				v = int(row[2*x]) | int(row[2*x+1])<<8
			} else {
				v = int(row[x])
			}
			h[min(v>>shift, histBins-1)]++
			n++
		}
	}
	for i := range h {
		h[i] /= float64(n)
	}
	return h
}

// DetectShots splits the reference's frames into shots.
func (r *Reference) DetectShots(d ShotDetection) []Segment {
	minFrames := int(math.Round(d.MinSeconds * r.Rate.Float64()))
	window := max(1, int(math.Round(r.Rate.Float64())))
	var shots []Segment
	var recent []float64 // the distances over the last second, within the shot
	start := 0
	prev := lumaHistogram(r.pics[0])
	for i := 1; i < len(r.pics); i++ {
		cur := lumaHistogram(r.pics[i])
		dist := 0.0
		for b := range cur {
			dist += math.Abs(cur[b] - prev[b])
		}
		dist /= 2
		prev = cur
		if dist > d.Threshold && dist > d.Ratio*median(recent) && i-start >= minFrames {
			shots = append(shots, Segment{start, i})
			start = i
			recent = recent[:0]
			continue
		}
		recent = append(recent, dist)
		if len(recent) > window {
			recent = recent[1:]
		}
	}
	return append(shots, Segment{start, len(r.pics)})
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
