// Package motion is integer motion, as libvmaf 3.2's "motion" extractor computes it: the mean
// absolute difference between the 5x5-blurred luma of consecutive
// reference frames, in 16.16 fixed point.
//
// libvmaf filters the difference of the two frames, rounding after the
// vertical pass and again after the horizontal pass. Because of that first
// rounding, blurring each frame on its own and subtracting the blurred
// frames would not give its numbers. The vertical pass, though, is exact
// integer arithmetic and linear, so the vertical sums of each frame can be
// taken apart (in parallel, per frame) and subtracted afterwards: the
// difference of the sums is exactly the sum libvmaf rounds. Everything after
// that first rounding needs both frames and runs in frame order.
//
// The engine's scheduler drives the two halves itself: Blur on any
// worker, SAD and Seq on its in-order collector.
package motion

import "github.com/vmafsink/vmafsink/vmaf/internal/feature"

// motionTaps is libvmaf's 5-tap integer Gaussian; the taps sum to 1<<16.
var motionTaps = [5]int64{3571, 16004, 26386, 16004, 3571}

const (
	motionRadius = 2
	// motionMaxValue caps every motion score (libvmaf's default
	// motion_max_val).
	motionMaxValue = 10000.0
)

// motionMirror reflects an index that fell off either end of [0, n) the way
// libvmaf 3.2 does: -1 maps to 1 and n to n-2 (the edge sample itself is not
// repeated).
func motionMirror(i, n int) int {
	if i < 0 {
		return -i
	}
	if i >= n {
		return 2*n - 2 - i
	}
	return i
}

// Frame holds one reference luma for SAD: either the vertical pass of
// the blur (unrounded sums of the five taps, so that two frames can be
// subtracted exactly) or, for 8-bit luma when the kernel set filters the
// difference from the samples (motionKernels.diff8), the samples
// themselves. It is reusable across frames of the same size; its buffers
// are made on first use.
type Frame struct {
	w, h int
	bpc  int
	raw  bool     // luma holds the samples; otherwise sums holds the sums
	sums []uint32 // h rows of w sums; at most 65535<<16 fits in 32 bits
	luma []byte   // h rows of w 8-bit samples
	// row is scratch for SAD when this frame is its cur argument: the
	// rounded vertical difference of one row with motionRadius mirrored
	// samples on either side.
	row []int32
	// prevRows and curRows are the windows SAD hands diff8, kept here for
	// the reason Blur keeps its rows.
	prevRows, curRows [5][]byte
	// kern are the kernels SAD runs when this frame is its cur argument,
	// chosen when the frame is made.
	kern *motionKernels
}

// NewFrame makes a frame buffer for w x h luma.
func NewFrame(w, h int) *Frame {
	return &Frame{
		w:    w,
		h:    h,
		row:  make([]int32, w+2*motionRadius),
		kern: motionBestKernels(),
	}
}

// Blur runs the per-frame part of the motion filter. It keeps the
// geometry it was made for; the vertical pass writes straight into the
// destination frame and needs no other scratch.
type Blur struct {
	w, h, bpc int
	kern      *motionKernels
	// The rows of the window, kept here because the kernels are called
	// through function values, which escape analysis cannot see through.
	rows8  [5][]byte
	rows16 [5][]uint16
}

// NewBlur makes the blur for w x h luma of bpc bits.
func NewBlur(w, h, bpc int) *Blur {
	return newMotionBlurWith(w, h, bpc, motionBestKernels())
}

// newMotionBlurWith is NewBlur with a chosen kernel set, so that
// tests can hold the implementations against each other.
func newMotionBlurWith(w, h, bpc int, k *motionKernels) *Blur {
	return &Blur{w: w, h: h, bpc: bpc, kern: k}
}

// Blur stores in dst what SAD needs of ref (a w x h luma plane at the
// blur's bit depth): its vertical 5-tap sums, or a copy of its samples
// when they are 8-bit and the kernel set filters differences from samples.
func (m *Blur) Blur(ref feature.Plane, dst *Frame) {
	w, h := m.w, m.h
	dst.bpc = m.bpc
	dst.raw = m.bpc == 8 && m.kern.diff8 != nil
	if dst.raw {
		if len(dst.luma) != w*h {
			dst.luma = make([]byte, w*h)
		}
		for y := 0; y < h; y++ {
			copy(dst.luma[y*w:y*w+w], ref.Row8(y)[:w])
		}
		return
	}
	if len(dst.sums) != w*h {
		dst.sums = make([]uint32, w*h)
	}
	for y := 0; y < h; y++ {
		out := dst.sums[y*w : y*w+w]
		for k := range 5 {
			r := motionMirror(y-motionRadius+k, h)
			if m.bpc == 8 {
				m.rows8[k] = ref.Row8(r)[:w]
			} else {
				m.rows16[k] = ref.Row16(r)[:w]
			}
		}
		if m.bpc == 8 {
			m.kern.vert8(out, &m.rows8)
		} else {
			m.kern.vert16(out, &m.rows16)
		}
	}
}

// SAD is libvmaf's VMAF_integer_feature_motion_sad_score for cur
// against the previous reference prev, both filled by Blur at the same
// geometry: the mean absolute blurred difference, capped at motionMaxValue.
// It uses cur's scratch row.
func SAD(cur, prev *Frame) float64 {
	return motionSADWith(cur, prev, cur.kern)
}

// motionSADWith is SAD with a chosen kernel set. Frames of samples are
// filtered by the set's diff8, or the portable one when it has none.
func motionSADWith(cur, prev *Frame, k *motionKernels) float64 {
	w, h := cur.w, cur.h
	shift := uint(cur.bpc)
	row := cur.row
	raw := cur.raw && prev.raw
	diff8 := k.diff8
	if diff8 == nil {
		diff8 = motionDiff8
	}
	var sad uint64
	for y := 0; y < h; y++ {
		inner := row[motionRadius : motionRadius+w]
		var any bool
		if raw {
			for i := range 5 {
				r := motionMirror(y-motionRadius+i, h)
				cur.prevRows[i] = prev.luma[r*w : r*w+w]
				cur.curRows[i] = cur.luma[r*w : r*w+w]
			}
			any = diff8(inner, &cur.prevRows, &cur.curRows)
		} else {
			any = k.diff(inner, prev.sums[y*w:y*w+w], cur.sums[y*w:y*w+w], shift)
		}
		if !any {
			continue
		}
		row[1], row[0] = row[motionRadius+1], row[motionRadius+2]
		row[w+motionRadius] = row[w+motionRadius-2]
		row[w+motionRadius+1] = row[w+motionRadius-3]
		sad += uint64(k.rowSAD(row, w))
	}
	score := float64(sad) / 256 / float64(w*h)
	return min(score, motionMaxValue)
}
