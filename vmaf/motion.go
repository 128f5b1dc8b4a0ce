package vmaf

// Integer motion, as libvmaf 3.2's "motion" extractor computes it: the mean
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

// motionFrame holds one reference luma after the vertical pass of the blur:
// unrounded sums of the five taps, so that two frames can be subtracted
// exactly. It is reusable across frames of the same size.
type motionFrame struct {
	w, h int
	bpc  int
	sums []uint32 // h rows of w sums; at most 65535<<16 fits in 32 bits
	// row is scratch for motionSAD when this frame is its cur argument: the
	// rounded vertical difference of one row with motionRadius mirrored
	// samples on either side.
	row []int64
}

func newMotionFrame(w, h int) *motionFrame {
	return &motionFrame{
		w:    w,
		h:    h,
		sums: make([]uint32, w*h),
		row:  make([]int64, w+2*motionRadius),
	}
}

// motionBlur runs the per-frame part of the motion filter. It keeps the
// geometry it was made for; the vertical pass writes straight into the
// destination frame and needs no other scratch.
type motionBlur struct {
	w, h, bpc int
}

func newMotionBlur(w, h, bpc int) *motionBlur {
	return &motionBlur{w: w, h: h, bpc: bpc}
}

// blur stores the vertical 5-tap sums of ref (a w x h luma plane at the
// blur's bit depth) in dst.
func (m *motionBlur) blur(ref plane, dst *motionFrame) {
	w, h := m.w, m.h
	dst.bpc = m.bpc
	for y := 0; y < h; y++ {
		out := dst.sums[y*w : y*w+w]
		r0 := motionMirror(y-2, h)
		r1 := motionMirror(y-1, h)
		r3 := motionMirror(y+1, h)
		r4 := motionMirror(y+2, h)
		if m.bpc == 8 {
			a, b, c, d, e := ref.row8(r0), ref.row8(r1), ref.row8(y), ref.row8(r3), ref.row8(r4)
			verticalSums8(out, a, b, c, d, e)
		} else {
			a, b, c, d, e := ref.row16(r0), ref.row16(r1), ref.row16(y), ref.row16(r3), ref.row16(r4)
			verticalSums16(out, a, b, c, d, e)
		}
	}
}

func verticalSums8(out []uint32, a, b, c, d, e []byte) {
	a, b, c, d, e = a[:len(out)], b[:len(out)], c[:len(out)], d[:len(out)], e[:len(out)]
	for x := range out {
		out[x] = 3571*(uint32(a[x])+uint32(e[x])) + 16004*(uint32(b[x])+uint32(d[x])) + 26386*uint32(c[x])
	}
}

func verticalSums16(out []uint32, a, b, c, d, e []uint16) {
	a, b, c, d, e = a[:len(out)], b[:len(out)], c[:len(out)], d[:len(out)], e[:len(out)]
	for x := range out {
		// The pairs can reach 2*65535*16004 > 2^32 before the other taps
		// are added, so add in 64 bits; the total fits in 32.
		s := 3571*(uint64(a[x])+uint64(e[x])) + 16004*(uint64(b[x])+uint64(d[x])) + 26386*uint64(c[x])
		out[x] = uint32(s)
	}
}

// motionSAD is libvmaf's VMAF_integer_feature_motion_sad_score for cur
// against the previous reference prev, both filled by blur at the same
// geometry: the mean absolute blurred difference, capped at motionMaxValue.
// It uses cur's scratch row.
func motionSAD(cur, prev *motionFrame) float64 {
	w, h := cur.w, cur.h
	shift := uint(cur.bpc)
	half := int64(1) << (shift - 1)
	row := cur.row
	var sad uint64
	for y := 0; y < h; y++ {
		p := prev.sums[y*w : y*w+w]
		c := cur.sums[y*w : y*w+w]
		inner := row[motionRadius : motionRadius+w]
		var any int64
		for x := range inner {
			// libvmaf subtracts the current frame from the previous one;
			// the order matters because the rounding is not symmetric.
			v := (int64(p[x]) - int64(c[x]) + half) >> shift
			inner[x] = v
			any |= v
		}
		if any == 0 {
			continue
		}
		row[1], row[0] = row[motionRadius+1], row[motionRadius+2]
		row[w+motionRadius] = row[w+motionRadius-2]
		row[w+motionRadius+1] = row[w+motionRadius-3]
		sad += uint64(motionRowSAD(row, w))
	}
	score := float64(sad) / 256 / float64(w*h)
	return min(score, motionMaxValue)
}

// motionRowSAD filters one padded row horizontally, rounds back from 16.16
// and sums the magnitudes. libvmaf keeps the per-row sum in 32 bits.
func motionRowSAD(row []int64, w int) uint32 {
	var sum uint32
	row = row[:w+2*motionRadius]
	for x := 0; x < w; x++ {
		t := row[x : x+5]
		acc := motionTaps[0]*(t[0]+t[4]) + motionTaps[1]*(t[1]+t[3]) + motionTaps[2]*t[2]
		v := int32((acc + 1<<15) >> 16)
		if v < 0 {
			v = -v
		}
		sum += uint32(v)
	}
	return sum
}
