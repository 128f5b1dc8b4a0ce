package motion

// motionKernelSupport is a kernel set and whether this machine runs it.
type motionKernelSupport struct {
	k  *motionKernels
	ok bool
}

// motionKernels is one implementation of the motion row kernels. Every set
// must give the bits of the portable one (motionScalarKernels).
type motionKernels struct {
	name string
	// vert8 and vert16 store in out the vertical 5-tap sums of the
	// window's rows r, the first len(out) columns.
	vert8  func(out []uint32, r *[5][]byte)
	vert16 func(out []uint32, r *[5][]uint16)
	// diff stores in v the rounded differences (p - c + 2^(shift-1)) >>
	// shift of two frames' vertical sums and reports whether any is
	// nonzero.
	diff func(v []int32, p, c []uint32, shift uint) bool
	// diff8 stores in v the same rounded differences for 8-bit frames,
	// filtered from the samples of the two windows p (previous) and c
	// (current); nil in a set that keeps 8-bit frames as vertical sums
	// (see Blur).
	diff8 func(v []int32, p, c *[5][]byte) bool
	// rowSAD filters a padded row of differences (2 mirrored samples on
	// either side of w) horizontally, rounds back from 16.16 and sums the
	// magnitudes, in 32 bits as libvmaf does. The differences must be
	// below 2^21 in magnitude (the AVX-512 kernel filters their high parts
	// as words); those of blurred frames are at most 2^16.
	rowSAD func(row []int32, w int) uint32
}

// motionScalarKernels works on every architecture and is the reference the
// vector kernels are tested against.
var motionScalarKernels = motionKernels{
	name:   "scalar",
	vert8:  motionVert8,
	vert16: motionVert16,
	diff:   motionDiff,
	diff8:  motionDiff8,
	rowSAD: motionRowSAD,
}

func motionVert8(out []uint32, r *[5][]byte) {
	a, b, c, d, e := r[0][:len(out)], r[1][:len(out)], r[2][:len(out)], r[3][:len(out)], r[4][:len(out)]
	for x := range out {
		out[x] = 3571*(uint32(a[x])+uint32(e[x])) + 16004*(uint32(b[x])+uint32(d[x])) + 26386*uint32(c[x])
	}
}

func motionVert16(out []uint32, r *[5][]uint16) {
	a, b, c, d, e := r[0][:len(out)], r[1][:len(out)], r[2][:len(out)], r[3][:len(out)], r[4][:len(out)]
	for x := range out {
		// The pairs can reach 2*65535*16004 > 2^32 before the other taps
		// are added, so add in 64 bits; the total fits in 32.
		s := 3571*(uint64(a[x])+uint64(e[x])) + 16004*(uint64(b[x])+uint64(d[x])) + 26386*uint64(c[x])
		out[x] = uint32(s)
	}
}

func motionDiff(v []int32, p, c []uint32, shift uint) bool {
	half := int64(1) << (shift - 1)
	p, c = p[:len(v)], c[:len(v)]
	var any int32
	for x := range v {
		// libvmaf subtracts the current frame from the previous one; the
		// order matters because the rounding is not symmetric.
		d := int32((int64(p[x]) - int64(c[x]) + half) >> shift)
		v[x] = d
		any |= d
	}
	return any != 0
}

// motionDiff8 is motionDiff of two 8-bit frames' vertical sums, formed
// from their samples: the difference of the sums is the filtered
// difference of the samples (at most 255·2^16 in magnitude, so int32
// holds it), rounded back by the 8 bits of the samples.
func motionDiff8(v []int32, p, c *[5][]byte) bool {
	n := len(v)
	p0, p1, p2, p3, p4 := p[0][:n], p[1][:n], p[2][:n], p[3][:n], p[4][:n]
	c0, c1, c2, c3, c4 := c[0][:n], c[1][:n], c[2][:n], c[3][:n], c[4][:n]
	var any int32
	for x := range v {
		outer := int32(p0[x]) - int32(c0[x]) + int32(p4[x]) - int32(c4[x])
		inner := int32(p1[x]) - int32(c1[x]) + int32(p3[x]) - int32(c3[x])
		s := 3571*outer + 16004*inner + 26386*(int32(p2[x])-int32(c2[x]))
		d := (s + 1<<7) >> 8
		v[x] = d
		any |= d
	}
	return any != 0
}

func motionRowSAD(row []int32, w int) uint32 {
	var sum uint32
	row = row[:w+2*motionRadius]
	for x := 0; x < w; x++ {
		t := row[x : x+5]
		acc := motionTaps[0]*(int64(t[0])+int64(t[4])) + motionTaps[1]*(int64(t[1])+int64(t[3])) + motionTaps[2]*int64(t[2])
		v := int32((acc + 1<<15) >> 16)
		if v < 0 {
			v = -v
		}
		sum += uint32(v)
	}
	return sum
}
