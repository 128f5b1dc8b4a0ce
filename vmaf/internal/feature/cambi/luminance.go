package cambi

import "math"

// Visibility thresholds are worked out on 10-bit limited-range luma
// (64..940), whatever the input's depth, as libvmaf does.
const (
	lumaFoot = 64
	lumaHead = 940
	lumaMax  = 1023
)

type eotfFunc func(v float64) float64

var eotfs = map[string]eotfFunc{"bt1886": bt1886, "pq": pq}

// bt1886 is ITU-R BT.1886's EOTF for a 300 cd/m² display with a 0.01
// cd/m² black level.
func bt1886(v float64) float64 {
	const gamma, lw, lb = 2.4, 300.0, 0.01
	wr, br := math.Pow(lw, 1/gamma), math.Pow(lb, 1/gamma)
	a := math.Pow(wr-br, gamma)
	b := br / (wr - br)
	return a * math.Pow(math.Max(v+b, 0), gamma)
}

// pq is SMPTE ST 2084's EOTF, in cd/m².
func pq(v float64) float64 {
	const m1, m2 = 0.1593017578125, 78.84375
	const c1, c2, c3 = 0.8359375, 18.8515625, 18.6875
	p := math.Pow(v, 1/m2)
	num := math.Max(p-c1, 0)
	den := c2 - c3*p
	return 10000 * math.Pow(num/den, 1/m1)
}

// luminance is the displayed luminance of a 10-bit limited-range level.
func luminance(level int, eotf eotfFunc) float64 {
	level = min(max(level, lumaFoot), lumaHead)
	return eotf(float64(level-lumaFoot) / float64(lumaHead-lumaFoot))
}

// visible: a step of diff levels up from level is visible when it
// raises luminance by more than threshold times the level's own.
func visible(level, diff int, threshold float64, eotf eotfFunc) bool {
	l := luminance(level, eotf)
	return luminance(level+diff, eotf)-l > threshold*l
}

// bisect results: the step is still visible one level up (too low), is
// not visible here (too high), or this is the last visible level.
const (
	tooLow = iota
	found
	tooHigh
)

func tviProbe(level, diff int, threshold float64, eotf eotfFunc) int {
	if !visible(level, diff, threshold, eotf) {
		return tooHigh
	}
	if visible(level+1, diff, threshold, eotf) {
		return tooLow
	}
	return found
}

// tviForDiff is the highest level at which a step of diff levels is
// visible, found by bisection between the range's foot and head as
// libvmaf does (0 when it is visible nowhere, 1023 when everywhere).
func tviForDiff(diff int, threshold float64, eotf eotfFunc) int {
	foot, head := lumaFoot, lumaHead-diff-1
	switch tviProbe(foot, diff, threshold, eotf) {
	case tooHigh:
		return 0
	case found:
		return foot
	}
	switch tviProbe(head, diff, threshold, eotf) {
	case tooLow:
		return lumaMax
	case found:
		return head
	}
	// libvmaf loops until it finds the level; the thresholds are
	// monotonic, so this ends well within the bound that guards it.
	for range 64 {
		mid := foot + (head-foot)/2
		switch tviProbe(mid, diff, threshold, eotf) {
		case tooHigh:
			head = mid
		case tooLow:
			foot = mid
		default:
			return mid
		}
	}
	return foot
}

// vltLuma is the lowest level whose luminance reaches threshold, or 0
// when the range's foot already does; ok is false when no level does.
func vltLuma(threshold float64, eotf eotfFunc) (level int, ok bool) {
	for level = lumaFoot; luminance(level, eotf) < threshold; level++ {
		if level > lumaHead {
			return 0, false
		}
	}
	if level == lumaFoot {
		return 0, true
	}
	return level, true
}
