package vmaf

// The db2 analysis filters in Q15. The low-pass taps sum to 46342 (sqrt 2),
// the high-pass taps to zero.
const (
	admLo0, admLo1, admLo2, admLo3 = 15826, 27411, 7345, -4240
	admHi0, admHi1, admHi2, admHi3 = -4240, -7345, 27411, -15826
	admLoSum                       = 46342
)

// admMirror maps a filter tap position into [0, n) as libvmaf's transform
// does: reflected about sample 0 at the start (-1 reads 1) and about the
// edge at the end (n reads n-1, n+1 reads n-2). Output sample i of a level
// reads input positions 2i-1 .. 2i+2.
func admMirror(p, n int) int {
	if p < 0 {
		p = -p
	}
	if p >= n {
		p = 2*n - p - 1
	}
	return max(p, 0) // only bands of one sample get here with p < 0
}

// admDWTPad fills the mirror padding around the n vertical-pass outputs
// held in t[1 : n+1], so that horizontal output j reads t[2j : 2j+4]
// without branches.
func admDWTPad(t []int32, n int) {
	t[0] = t[1+admMirror(-1, n)]
	t[n+1] = t[1+admMirror(n, n)]
	t[n+2] = t[1+admMirror(n+1, n)]
}

// dwt0u8 is the level-0 transform of an 8-bit plane. The vertical pass
// centres the samples on zero and drops 8 bits of the Q15 products, the
// horizontal pass 16.
func (a *adm) dwt0u8(p plane, outA []int32, out [3][]int16) {
	w, h := a.w, a.h
	hw := a.bw[0]
	lo, hi := a.tmpLo[1:w+1], a.tmpHi[1:w+1]
	for i := range a.bh[0] {
		r0 := p.row8(admMirror(2*i-1, h))[:w]
		r1 := p.row8(admMirror(2*i, h))[:w]
		r2 := p.row8(admMirror(2*i+1, h))[:w]
		r3 := p.row8(admMirror(2*i+2, h))[:w]
		for j := range lo {
			u0, u1, u2, u3 := int32(r0[j]), int32(r1[j]), int32(r2[j]), int32(r3[j])
			l := admLo0*u0 + admLo1*u1 + admLo2*u2 + admLo3*u3 - admLoSum*128
			g := admHi0*u0 + admHi1*u1 + admHi2*u2 + admHi3*u3
			lo[j] = int32(int16((l + 128) >> 8))
			hi[j] = int32(int16((g + 128) >> 8))
		}
		a.dwt0Horizontal(i*hw, hw, outA, out)
	}
}

// dwt0u16 is dwt0u8 for samples deeper than 8 bits: the vertical pass
// drops bpc bits, so every depth lands in the same range.
func (a *adm) dwt0u16(p plane, outA []int32, out [3][]int16) {
	w, h := a.w, a.h
	hw := a.bw[0]
	shift := uint(a.bpc)
	half := int32(1) << (shift - 1)
	lo, hi := a.tmpLo[1:w+1], a.tmpHi[1:w+1]
	for i := range a.bh[0] {
		r0 := p.row16(admMirror(2*i-1, h))[:w]
		r1 := p.row16(admMirror(2*i, h))[:w]
		r2 := p.row16(admMirror(2*i+1, h))[:w]
		r3 := p.row16(admMirror(2*i+2, h))[:w]
		for j := range lo {
			u0, u1, u2, u3 := int32(r0[j]), int32(r1[j]), int32(r2[j]), int32(r3[j])
			// For 16-bit input the partial sums pass 2^31; int32
			// arithmetic wraps and the final value is in range, as in
			// libvmaf.
			l := admLo0*u0 + admLo1*u1 + admLo2*u2 + admLo3*u3 - admLoSum*half
			g := admHi0*u0 + admHi1*u1 + admHi2*u2 + admHi3*u3
			lo[j] = int32(int16((l + half) >> shift))
			hi[j] = int32(int16((g + half) >> shift))
		}
		a.dwt0Horizontal(i*hw, hw, outA, out)
	}
}

// dwt0Horizontal filters and decimates the vertical-pass rows into output
// row starting at off: LL into outA, and the detail bands h (vertical
// high-pass), v (horizontal high-pass) and d into out[0..2].
func (a *adm) dwt0Horizontal(off, hw int, outA []int32, out [3][]int16) {
	w := a.w
	admDWTPad(a.tmpLo, w)
	admDWTPad(a.tmpHi, w)
	lo, hi := a.tmpLo[:2*hw+2], a.tmpHi[:2*hw+2]
	oa := outA[off : off+hw]
	oh, ov, od := out[0][off:off+hw], out[1][off:off+hw], out[2][off:off+hw]
	for j := range oa {
		l := lo[2*j : 2*j+4 : 2*j+4]
		g := hi[2*j : 2*j+4 : 2*j+4]
		oa[j] = int32(int16((admLo0*l[0] + admLo1*l[1] + admLo2*l[2] + admLo3*l[3] + 32768) >> 16))
		ov[j] = int16((admHi0*l[0] + admHi1*l[1] + admHi2*l[2] + admHi3*l[3] + 32768) >> 16)
		oh[j] = int16((admLo0*g[0] + admLo1*g[1] + admLo2*g[2] + admLo3*g[3] + 32768) >> 16)
		od[j] = int16((admHi0*g[0] + admHi1*g[1] + admHi2*g[2] + admHi3*g[3] + 32768) >> 16)
	}
	if a.simdLast[0] {
		a.dwt0SIMDLast(off, hw, outA, out)
	}
}

// dwt0SIMDLast recomputes the last output column of a level-0 row the way
// libvmaf's AVX-512 kernels do when their vector loop covers it: the taps
// past the row end are not mirrored but read on through memory, from the
// vertical high-pass row that follows the low-pass one and then from the
// scratch word after it, a leftover of the previous frame's levels 1 and
// 2 (see adm.tmp).
func (a *adm) dwt0SIMDLast(off, hw int, outA []int32, out [3][]int16) {
	w := a.w
	lo, hi := a.tmpLo[1:w+1], a.tmpHi[1:w+1]
	word := uint32(a.tmp[w])
	after := [2]int32{int32(int16(word)), int32(int16(word >> 16))}
	var l, g [4]int32
	for k := range 4 {
		if p := 2*hw - 3 + k; p < w {
			l[k], g[k] = lo[p], hi[p]
		} else {
			l[k], g[k] = hi[p-w], after[p-w]
		}
	}
	j := off + hw - 1
	outA[j] = int32(int16((admLo0*l[0] + admLo1*l[1] + admLo2*l[2] + admLo3*l[3] + 32768) >> 16))
	out[1][j] = int16((admHi0*l[0] + admHi1*l[1] + admHi2*l[2] + admHi3*l[3] + 32768) >> 16)
	out[0][j] = int16((admLo0*g[0] + admLo1*g[1] + admLo2*g[2] + admLo3*g[3] + 32768) >> 16)
	out[2][j] = int16((admHi0*g[0] + admHi1*g[1] + admHi2*g[2] + admHi3*g[3] + 32768) >> 16)
}

// Rounding of levels 1 to 3, indexed by level-1: the vertical pass keeps
// full precision at level 1 and drops 16 bits after, the horizontal pass
// drops 15, 16 and 15 bits.
var (
	admVShift = [3]uint{0, 16, 16}
	admVRound = [3]int64{0, 32768, 32768}
	admHShift = [3]uint{15, 16, 15}
	admHRound = [3]int64{16384, 32768, 16384}
)

// dwtN is the transform of level l (1..3) of both pictures from the
// previous level's LL bands. The vertical-pass rows are laid out in a.tmp
// as libvmaf lays them out (reference low, reference high, distorted low,
// distorted high, each as wide as the input), which is what its AVX-512
// kernel reads past the row end for the last column. The LL output is
// only needed when another level follows.
func (a *adm) dwtN(l int, wantA bool) {
	w, h := a.bw[l-1], a.bh[l-1]
	hw := a.bw[l]
	vs, vr := admVShift[l-1], admVRound[l-1]
	inR, inD := a.refA[(l-1)&1], a.disA[(l-1)&1]
	t := a.tmp[:4*w]
	for i := range a.bh[l] {
		var y [4]int
		for k := range y {
			y[k] = admMirror(2*i-1+k, h) * w
		}
		for n, in := range [2][]int32{inR, inD} {
			r0, r1, r2, r3 := in[y[0]:y[0]+w], in[y[1]:y[1]+w], in[y[2]:y[2]+w], in[y[3]:y[3]+w]
			lo, hi := t[2*n*w:(2*n+1)*w], t[(2*n+1)*w:(2*n+2)*w]
			for j := range lo {
				u0, u1, u2, u3 := int64(r0[j]), int64(r1[j]), int64(r2[j]), int64(r3[j])
				lo[j] = int32((admLo0*u0 + admLo1*u1 + admLo2*u2 + admLo3*u3 + vr) >> vs)
				hi[j] = int32((admHi0*u0 + admHi1*u1 + admHi2*u2 + admHi3*u3 + vr) >> vs)
			}
		}
		off := i * hw
		a.dwtNRow(l, 0, off, a.refA[l&1], a.ref32, wantA)
		a.dwtNRow(l, 2*w, off, a.disA[l&1], a.dis32, wantA)
	}
}

// dwtNRow filters and decimates the vertical-pass rows at a.tmp[base:]
// (low) and a.tmp[base+w:] (high) into output row off of level l.
func (a *adm) dwtNRow(l, base, off int, outA []int32, out [3][]int32, wantA bool) {
	w, hw := a.bw[l-1], a.bw[l]
	hs, hr := admHShift[l-1], admHRound[l-1]
	lo, hi := a.tmp[base:base+w], a.tmp[base+w:base+2*w]
	oa := outA[off : off+hw]
	oh, ov, od := out[0][off:off+hw], out[1][off:off+hw], out[2][off:off+hw]
	// Outputs 1 .. inner-1 read taps 2j-1 .. 2j+2 inside the row.
	inner := max(min((w-1)/2, hw), 1)
	for j := 1; j < inner; j++ {
		p := lo[2*j-1 : 2*j+3 : 2*j+3]
		q := hi[2*j-1 : 2*j+3 : 2*j+3]
		p0, p1, p2, p3 := int64(p[0]), int64(p[1]), int64(p[2]), int64(p[3])
		q0, q1, q2, q3 := int64(q[0]), int64(q[1]), int64(q[2]), int64(q[3])
		ov[j] = int32((admHi0*p0 + admHi1*p1 + admHi2*p2 + admHi3*p3 + hr) >> hs)
		oh[j] = int32((admLo0*q0 + admLo1*q1 + admLo2*q2 + admLo3*q3 + hr) >> hs)
		od[j] = int32((admHi0*q0 + admHi1*q1 + admHi2*q2 + admHi3*q3 + hr) >> hs)
		if wantA {
			oa[j] = int32((admLo0*p0 + admLo1*p1 + admLo2*p2 + admLo3*p3 + hr) >> hs)
		}
	}
	for j := 0; j < hw; j++ {
		if j == 1 {
			if j = inner; j >= hw {
				break
			}
		}
		var p, q [4]int64
		for k := range 4 {
			x := 2*j - 1 + k
			if !(a.simdLast[l] && j == hw-1) {
				x = admMirror(x, w)
			}
			// Unmirrored taps past the row run on into the next rows of
			// a.tmp, as libvmaf's AVX-512 loop reads them.
			p[k], q[k] = int64(a.tmp[base+x]), int64(a.tmp[base+w+x])
		}
		ov[j] = int32((admHi0*p[0] + admHi1*p[1] + admHi2*p[2] + admHi3*p[3] + hr) >> hs)
		oh[j] = int32((admLo0*q[0] + admLo1*q[1] + admLo2*q[2] + admLo3*q[3] + hr) >> hs)
		od[j] = int32((admHi0*q[0] + admHi1*q[1] + admHi2*q[2] + admHi3*q[3] + hr) >> hs)
		if wantA {
			oa[j] = int32((admLo0*p[0] + admLo1*p[1] + admLo2*p[2] + admLo3*p[3] + hr) >> hs)
		}
	}
}
