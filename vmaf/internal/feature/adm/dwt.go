package adm

import (
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

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
func admDWTPad(t []int16, n int) {
	t[0] = t[1+admMirror(-1, n)]
	t[n+1] = t[1+admMirror(n, n)]
	t[n+2] = t[1+admMirror(n+1, n)]
}

// dwt0Row computes output row i of the level-0 transform of p: LL into
// outA, the detail bands h (vertical high-pass), v (horizontal high-pass)
// and d into det, a row each.
func (a *adm) dwt0Row(p feature.Plane, i int, outA []int32, det *[3][]int16) {
	w, h := a.w, a.h
	lo, hi := a.tmpLo[1:w+1], a.tmpHi[1:w+1]
	if a.bpc == 8 {
		for k := range a.rows8 {
			a.rows8[k] = p.Row8(admMirror(2*i-1+k, h))[:w]
		}
		a.kern.dwt0Vert8(lo, hi, &a.rows8)
	} else {
		for k := range a.rows16 {
			a.rows16[k] = p.Row16(admMirror(2*i-1+k, h))[:w]
		}
		a.kern.dwt0Vert16(lo, hi, &a.rows16, uint(a.bpc))
	}
	admDWTPad(a.tmpLo, w)
	admDWTPad(a.tmpHi, w)
	hw := a.bw[0]
	oa := outA[i*hw : i*hw+hw]
	a.kern.dwt0Horiz(oa, det, a.tmpLo[:2*hw+2], a.tmpHi[:2*hw+2])
	if a.simdLast[0] {
		a.dwt0SIMDLast(oa, det)
	}
}

// admDWT0Vert8 is the level-0 vertical pass of 8-bit rows: the samples are
// centred on zero and the Q15 products drop 8 bits.
func admDWT0Vert8(lo, hi []int16, r *[4][]byte) {
	hi = hi[:len(lo)]
	r0, r1, r2, r3 := r[0][:len(lo)], r[1][:len(lo)], r[2][:len(lo)], r[3][:len(lo)]
	for j := range lo {
		u0, u1, u2, u3 := int32(r0[j]), int32(r1[j]), int32(r2[j]), int32(r3[j])
		l := admLo0*u0 + admLo1*u1 + admLo2*u2 + admLo3*u3 - admLoSum*128
		g := admHi0*u0 + admHi1*u1 + admHi2*u2 + admHi3*u3
		lo[j] = int16((l + 128) >> 8)
		hi[j] = int16((g + 128) >> 8)
	}
}

// admDWT0Vert16 is admDWT0Vert8 for samples deeper than 8 bits: the
// products drop bpc bits, so every depth lands in the same range.
func admDWT0Vert16(lo, hi []int16, r *[4][]uint16, bpc uint) {
	half := int32(1) << (bpc - 1)
	hi = hi[:len(lo)]
	r0, r1, r2, r3 := r[0][:len(lo)], r[1][:len(lo)], r[2][:len(lo)], r[3][:len(lo)]
	for j := range lo {
		u0, u1, u2, u3 := int32(r0[j]), int32(r1[j]), int32(r2[j]), int32(r3[j])
		// For 16-bit input the partial sums pass 2^31; int32 arithmetic
		// wraps and the final value is in range, as in libvmaf.
		l := admLo0*u0 + admLo1*u1 + admLo2*u2 + admLo3*u3 - admLoSum*half
		g := admHi0*u0 + admHi1*u1 + admHi2*u2 + admHi3*u3
		lo[j] = int16((l + half) >> bpc)
		hi[j] = int16((g + half) >> bpc)
	}
}

// admDWT0Horiz is the level-0 horizontal pass; every product and sum fits
// in 32 bits.
func admDWT0Horiz(ll []int32, det *[3][]int16, lo, hi []int16) {
	oh, ov, od := det[0][:len(ll)], det[1][:len(ll)], det[2][:len(ll)]
	for j := range ll {
		l := lo[2*j : 2*j+4 : 2*j+4]
		g := hi[2*j : 2*j+4 : 2*j+4]
		l0, l1, l2, l3 := int32(l[0]), int32(l[1]), int32(l[2]), int32(l[3])
		g0, g1, g2, g3 := int32(g[0]), int32(g[1]), int32(g[2]), int32(g[3])
		ll[j] = int32(int16((admLo0*l0 + admLo1*l1 + admLo2*l2 + admLo3*l3 + 32768) >> 16))
		ov[j] = int16((admHi0*l0 + admHi1*l1 + admHi2*l2 + admHi3*l3 + 32768) >> 16)
		oh[j] = int16((admLo0*g0 + admLo1*g1 + admLo2*g2 + admLo3*g3 + 32768) >> 16)
		od[j] = int16((admHi0*g0 + admHi1*g1 + admHi2*g2 + admHi3*g3 + 32768) >> 16)
	}
}

// dwt0SIMDLast recomputes the last output column of a level-0 row the way
// libvmaf's AVX-512 kernels do when their vector loop covers it: the taps
// past the row end are not mirrored but read on through memory, from the
// vertical high-pass row that follows the low-pass one and then from the
// scratch word after it, a leftover of the previous frame's levels 1 and
// 2 (see adm.tmp).
func (a *adm) dwt0SIMDLast(oa []int32, det *[3][]int16) {
	w := a.w
	hw := len(oa)
	lo, hi := a.tmpLo[1:w+1], a.tmpHi[1:w+1]
	word := uint32(a.tmp[w])
	after := [2]int32{int32(int16(word)), int32(int16(word >> 16))}
	var l, g [4]int32
	for k := range 4 {
		if p := 2*hw - 3 + k; p < w {
			l[k], g[k] = int32(lo[p]), int32(hi[p])
		} else {
			l[k], g[k] = int32(hi[p-w]), after[p-w]
		}
	}
	j := hw - 1
	oa[j] = int32(int16((admLo0*l[0] + admLo1*l[1] + admLo2*l[2] + admLo3*l[3] + 32768) >> 16))
	det[1][j] = int16((admHi0*l[0] + admHi1*l[1] + admHi2*l[2] + admHi3*l[3] + 32768) >> 16)
	det[0][j] = int16((admLo0*g[0] + admLo1*g[1] + admLo2*g[2] + admLo3*g[3] + 32768) >> 16)
	det[2][j] = int16((admHi0*g[0] + admHi1*g[1] + admHi2*g[2] + admHi3*g[3] + 32768) >> 16)
}

// admDWTN holds the roundings of levels 1 to 3, indexed by level-1: the
// vertical pass keeps full precision at level 1 and drops 16 bits after,
// the horizontal pass drops 15, 16 and 15 bits.
var admDWTN = [3]admDWTNParams{
	{vShift: 0, vRound: 0, hShift: 15, hRound: 16384},
	{vShift: 16, vRound: 32768, hShift: 16, hRound: 32768},
	{vShift: 16, vRound: 32768, hShift: 15, hRound: 16384},
}

// dwtNRow computes output row i of the transform of level l (1..3) of
// both pictures from the previous level's LL bands. The vertical-pass rows
// are laid out in a.tmp as libvmaf lays them out (reference low,
// reference high, distorted low, distorted high, each as wide as the
// input), which is what its AVX-512 kernel reads past the row end for the
// last column. The LL output is only needed when another level follows.
func (a *adm) dwtNRow(l, i int, wantA bool) {
	w, h := a.bw[l-1], a.bh[l-1]
	p := &admDWTN[l-1]
	t := a.tmp[:4*w]
	for n, in := range [2][]int32{a.refA[(l-1)&1], a.disA[(l-1)&1]} {
		for k := range a.rows32 {
			y := 2*i - 1 + k
			if y < 0 && a.bh[l] == 2 {
				// Unmirrored, see fillAbove.
				a.rows32[k] = a.above[n][:w]
				continue
			}
			y = admMirror(y, h) * w
			a.rows32[k] = in[y : y+w]
		}
		a.kern.dwtNVert(t[2*n*w:(2*n+1)*w], t[(2*n+1)*w:(2*n+2)*w], &a.rows32, p)
	}
	off := i * a.bw[l]
	a.dwtNHorizRow(l, 0, off, a.refA[l&1], &a.ref32, wantA)
	a.dwtNHorizRow(l, 2*w, off, a.disA[l&1], &a.dis32, wantA)
}

// admDWTNVert is the vertical pass of levels 1 to 3, in 64 bits.
func admDWTNVert(lo, hi []int32, r *[4][]int32, p *admDWTNParams) {
	vs, vr := p.vShift, p.vRound
	hi = hi[:len(lo)]
	r0, r1, r2, r3 := r[0][:len(lo)], r[1][:len(lo)], r[2][:len(lo)], r[3][:len(lo)]
	for j := range lo {
		u0, u1, u2, u3 := int64(r0[j]), int64(r1[j]), int64(r2[j]), int64(r3[j])
		lo[j] = int32((admLo0*u0 + admLo1*u1 + admLo2*u2 + admLo3*u3 + vr) >> vs)
		hi[j] = int32((admHi0*u0 + admHi1*u1 + admHi2*u2 + admHi3*u3 + vr) >> vs)
	}
}

// dwtNHorizRow filters and decimates the vertical-pass rows at a.tmp[base:]
// (low) and a.tmp[base+w:] (high) into output row off of level l: LL into
// outA (when wanted) and the detail bands into det.
func (a *adm) dwtNHorizRow(l, base, off int, outA []int32, det *[3][]int32, wantA bool) {
	w, hw := a.bw[l-1], a.bw[l]
	p := &admDWTN[l-1]
	hs, hr := p.hShift, p.hRound
	lo, hi := a.tmp[base:base+w], a.tmp[base+w:base+2*w]
	var oa []int32
	if wantA {
		oa = outA[off : off+hw]
	}
	// Outputs 1 .. inner-1 read taps 2j-1 .. 2j+2 inside the row.
	inner := max(min((w-1)/2, hw), 1)
	if inner > 1 {
		var ll []int32
		if wantA {
			ll = oa[1:inner]
		}
		a.det32 = [3][]int32{det[0][1:inner], det[1][1:inner], det[2][1:inner]}
		a.kern.dwtNHoriz(ll, &a.det32, lo[1:2*inner+1], hi[1:2*inner+1], p)
	}
	oh, ov, od := det[0], det[1], det[2]
	for j := 0; j < hw; j++ {
		if j == 1 {
			if j = inner; j >= hw {
				break
			}
		}
		var tl, th [4]int64
		for k := range 4 {
			x := 2*j - 1 + k
			if x < 0 && hw == 2 {
				// libvmaf reads tap -1 of a row of 3 or 4 samples
				// unmirrored (see fillAbove): the word before the row in
				// its layout of a.tmp. Before the first row, the reference
				// low-pass one, that word is outside its buffer (the
				// allocator's bookkeeping, zero with glibc); it only
				// reaches the LL band and v.
				if base+x >= 0 {
					tl[k] = int64(a.tmp[base+x])
				}
				th[k] = int64(a.tmp[base+w+x])
				continue
			}
			if !(a.simdLast[l] && j == hw-1) {
				x = admMirror(x, w)
			}
			// Unmirrored taps past the row run on into the next rows of
			// a.tmp, as libvmaf's AVX-512 loop reads them.
			tl[k], th[k] = int64(a.tmp[base+x]), int64(a.tmp[base+w+x])
		}
		ov[j] = int32((admHi0*tl[0] + admHi1*tl[1] + admHi2*tl[2] + admHi3*tl[3] + hr) >> hs)
		oh[j] = int32((admLo0*th[0] + admLo1*th[1] + admLo2*th[2] + admLo3*th[3] + hr) >> hs)
		od[j] = int32((admHi0*th[0] + admHi1*th[1] + admHi2*th[2] + admHi3*th[3] + hr) >> hs)
		if wantA {
			oa[j] = int32((admLo0*tl[0] + admLo1*tl[1] + admLo2*tl[2] + admLo3*tl[3] + hr) >> hs)
		}
	}
}

// admDWTNHoriz is the horizontal pass of levels 1 to 3, in 64 bits.
func admDWTNHoriz(ll []int32, det *[3][]int32, lo, hi []int32, p *admDWTNParams) {
	hs, hr := p.hShift, p.hRound
	oh, ov, od := det[0], det[1][:len(det[0])], det[2][:len(det[0])]
	for j := range oh {
		l := lo[2*j : 2*j+4 : 2*j+4]
		g := hi[2*j : 2*j+4 : 2*j+4]
		p0, p1, p2, p3 := int64(l[0]), int64(l[1]), int64(l[2]), int64(l[3])
		q0, q1, q2, q3 := int64(g[0]), int64(g[1]), int64(g[2]), int64(g[3])
		ov[j] = int32((admHi0*p0 + admHi1*p1 + admHi2*p2 + admHi3*p3 + hr) >> hs)
		oh[j] = int32((admLo0*q0 + admLo1*q1 + admLo2*q2 + admLo3*q3 + hr) >> hs)
		od[j] = int32((admHi0*q0 + admHi1*q1 + admHi2*q2 + admHi3*q3 + hr) >> hs)
	}
	if ll != nil {
		ll = ll[:len(oh)]
		for j := range ll {
			l := lo[2*j : 2*j+4 : 2*j+4]
			p0, p1, p2, p3 := int64(l[0]), int64(l[1]), int64(l[2]), int64(l[3])
			ll[j] = int32((admLo0*p0 + admLo1*p1 + admLo2*p2 + admLo3*p3 + hr) >> hs)
		}
	}
}
