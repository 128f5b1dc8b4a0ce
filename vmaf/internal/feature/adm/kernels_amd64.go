//go:build !purego

package adm

import (
	"math"

	"github.com/vmafsink/vmafsink/vmaf/internal/cpu"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/internal/kit"
)

// The AVX2 and AVX-512 ADM kernels are Go assembly generated with avo by
// internal/asmgen/adm; run go generate in this directory after changing
// it. Each wrapper below hands the kernel the whole vector blocks of a row
// and finishes the rest with the portable kernel, so a set can be used at
// any size.
//
//go:generate go run -C ../../../../internal/asmgen ./adm -out ../../vmaf/internal/feature/adm/adm_amd64.s -stubs ../../vmaf/internal/feature/adm/adm_stub_amd64.go -pkg adm

var admAVX2Kernels = admKernels{
	name:       "avx2",
	dwt0Vert8:  admDWT0Vert8Vec,
	dwt0Vert16: admDWT0Vert16Vec,
	dwt0Horiz:  admDWT0HorizVec,
	decouple0:  admDecouple0Vec,
	cube0:      admCube0Vec,
	cm0:        admCM0Vec,
	dwtNVert:   admDWTNVertVec,
	dwtNHoriz:  admDWTNHorizVec,
	decoupleN:  admDecoupleNVec,
	cubeN:      admCubeN,
	cmN:        admCMNVec,
}

// admAVX512Kernels is the AVX2 set with wider blocks where AVX-512 has
// been worth it so far: the level-0 DWT of 8-bit input (32 columns), the
// decoupling and contrast masking of every level (16 columns), and the
// denominator sums of levels 1 to 3 (16 samples).
var admAVX512Kernels = func() admKernels {
	k := admAVX2Kernels
	k.name = "avx512"
	k.dwt0Vert8 = admDWT0Vert8Wide
	k.dwt0Horiz = admDWT0HorizWide
	k.decouple0 = admDecouple0Wide
	k.cm0 = admCM0Wide
	k.cmN = admCMNWide
	k.decoupleN = admDecoupleNWide
	k.cubeN = admCubeNWide
	return k
}()

// The AVX-512 kernel needs BW and VNNI (VPDPWSSD), and VL for the EVEX
// forms of its 256-bit moves; internal/cpu's AVX512 includes them.

// admBestKernels returns the fastest kernel set this machine runs under
// the process's CPU mask.
func admBestKernels() *admKernels {
	switch f := cpu.Get(); {
	case f.AVX512:
		return &admAVX512Kernels
	case f.AVX2:
		return &admAVX2Kernels
	}
	return &admScalarKernels
}

// admKernelSets lists every kernel set this machine runs, for tests,
// slowest first.
func admKernelSets() []*admKernels {
	sets := []*admKernels{&admScalarKernels}
	for _, s := range admVecKernelSupport() {
		if s.ok {
			sets = append(sets, s.k)
		}
	}
	return sets
}

// admVecKernelSupport lists every vector kernel set of this build with
// whether this machine runs it.
func admVecKernelSupport() []admKernelSupport {
	return []admKernelSupport{{&admAVX2Kernels, cpu.X86.AVX2}, {&admAVX512Kernels, cpu.X86.AVX512}}
}

func admDWT0Vert8Vec(lo, hi []int16, r *[4][]byte) {
	n := len(lo) &^ 15
	if n > 0 {
		admDWT0Vert8AVX2(kit.At(lo, n), kit.At(hi, n), kit.At(r[0], n), kit.At(r[1], n), kit.At(r[2], n), kit.At(r[3], n), n)
	}
	if n < len(lo) {
		admDWT0Vert8(lo[n:], hi[n:], &[4][]byte{r[0][n:], r[1][n:], r[2][n:], r[3][n:]})
	}
}

// admDWT0Vert8Wide runs 32-column AVX-512 blocks, then the AVX2 path.
func admDWT0Vert8Wide(lo, hi []int16, r *[4][]byte) {
	n := len(lo) &^ 31
	if n > 0 {
		admDWT0Vert8AVX512(kit.At(lo, n), kit.At(hi, n), kit.At(r[0], n), kit.At(r[1], n), kit.At(r[2], n), kit.At(r[3], n), n)
	}
	if n < len(lo) {
		admDWT0Vert8Vec(lo[n:], hi[n:], &[4][]byte{r[0][n:], r[1][n:], r[2][n:], r[3][n:]})
	}
}

func admDWT0Vert16Vec(lo, hi []int16, r *[4][]uint16, bpc uint) {
	n := len(lo) &^ 15
	if n > 0 {
		admDWT0Vert16AVX2(kit.At(lo, n), kit.At(hi, n), kit.At(r[0], n), kit.At(r[1], n), kit.At(r[2], n), kit.At(r[3], n), n,
			uint64(bpc), int32(1)<<(bpc-1))
	}
	if n < len(lo) {
		admDWT0Vert16(lo[n:], hi[n:], &[4][]uint16{r[0][n:], r[1][n:], r[2][n:], r[3][n:]}, bpc)
	}
}

func admDWT0HorizVec(ll []int32, det *[3][]int16, lo, hi []int16) {
	admDWT0HorizSpan(ll, det, lo, hi, 0)
}

// admDWT0HorizWide runs 32-output AVX-512 blocks, then the AVX2 path.
func admDWT0HorizWide(ll []int32, det *[3][]int16, lo, hi []int16) {
	n := len(ll) &^ 31
	if n > 0 {
		admDWT0HorizAVX512(kit.At(ll, n), kit.At(det[0], n), kit.At(det[1], n), kit.At(det[2], n), kit.At(lo, 2*n+2), kit.At(hi, 2*n+2), n)
	}
	admDWT0HorizSpan(ll, det, lo, hi, n)
}

// admDWT0HorizSpan makes outputs j on with the AVX2 kernel and the rest
// with the portable one.
func admDWT0HorizSpan(ll []int32, det *[3][]int16, lo, hi []int16, j int) {
	ll, lo, hi = ll[j:], lo[2*j:], hi[2*j:]
	d := [3][]int16{det[0][j:], det[1][j:], det[2][j:]}
	n := len(ll) &^ 15
	if n > 0 {
		admDWT0HorizAVX2(kit.At(ll, n), kit.At(d[0], n), kit.At(d[1], n), kit.At(d[2], n), kit.At(lo, 2*n+2), kit.At(hi, 2*n+2), n)
	}
	if n < len(ll) {
		admDWT0Horiz(ll[n:], &[3][]int16{d[0][n:], d[1][n:], d[2][n:]}, lo[2*n:], hi[2*n:])
	}
}

// admVecGain reports whether the level-0 kernel takes gain: an integer
// from 1 to 65535, so that the enhanced coefficient is exact in 32 bits.
func admVecGain(gain float64) bool {
	return gain >= 1 && gain <= 65535 && gain == math.Trunc(gain)
}

func admDecouple0Vec(r *admDecouple16Row, gain float64) {
	admDecouple0Span(r, gain, false)
}

// admDecouple0Wide runs 16-column AVX-512 blocks, then at most one AVX2
// block, then the portable code.
func admDecouple0Wide(r *admDecouple16Row, gain float64) {
	admDecouple0Span(r, gain, true)
}

func admDecouple0Span(r *admDecouple16Row, gain float64, wide bool) {
	n := len(r.o[0]) &^ 7
	if !admVecGain(gain) || !r.holds(n) {
		n = 0
	}
	m := 0
	if wide {
		m = n &^ 15
	}
	if m > 0 {
		admDecouple0AVX512(&r.o[0], m, int32(gain), float64(admCos1Sq), &admRecip[0])
	}
	if m < n {
		rest := r.from(m)
		admDecouple0AVX2(&rest.o[0], n-m, int32(gain), float64(admCos1Sq), &admRecip[0])
	}
	if n < len(r.o[0]) {
		tail := r.from(n)
		admDecouple0(&tail, gain)
	}
}

// holds reports whether every row of r has n columns.
func (r *admDecouple16Row) holds(n int) bool {
	return admBandsHold(n, &r.o, &r.t, &r.rst, &r.add, &r.mR, &r.fR, &r.mA, &r.fA)
}

// admBandsHold reports whether every row of the bands fs has n columns.
func admBandsHold[T int16 | int32](n int, fs ...*[3][]T) bool {
	for _, f := range fs {
		for _, s := range f {
			if len(s) < n {
				return false
			}
		}
	}
	return true
}

// from returns r without its first n columns.
func (r *admDecouple16Row) from(n int) admDecouple16Row {
	var t admDecouple16Row
	for i, f := range [...]*[3][]int16{&r.o, &r.t, &r.rst, &r.add, &r.mR, &r.fR, &r.mA, &r.fA} {
		d := [...]*[3][]int16{&t.o, &t.t, &t.rst, &t.add, &t.mR, &t.fR, &t.mA, &t.fA}[i]
		for b := range f {
			d[b] = f[b][n:]
		}
	}
	return t
}

func admCube0Vec(row []int16) uint64 {
	n := len(row) &^ 7
	var s uint64
	if n > 0 {
		s = admCube0AVX2(&row[0], n)
	}
	return s + admCube0(row[n:])
}

// admCMVecBand is one orientation's masking parameters as the AVX2
// kernels read them: values broadcast to every lane, shift counts in the
// low quadword of 16 bytes.
type admCMVecBand struct {
	rf          [8]int32
	sqRnd, cRnd [4]int64
	sub, sq, cs [2]uint64
	csNeg       [2]uint64 // 64 - cs
}

// admCMVecBands lays out p's three orientations for the kernels.
func admCMVecBands(p *admCMParams) (vp [3]admCMVecBand) {
	for b := range vp {
		vp[b].set(p, b)
	}
	return vp
}

func (v *admCMVecBand) set(p *admCMParams, b int) {
	for i := range v.rf {
		v.rf[i] = int32(p.rf[b])
	}
	for i := range v.sqRnd {
		v.sqRnd[i] = int64(1) << (p.sq[b] - 1)
		v.cRnd[i] = admRoundHalf(int(p.cs[b]))
	}
	v.sub[0], v.sq[0], v.cs[0], v.csNeg[0] = uint64(p.sub[b]), uint64(p.sq[b]), uint64(p.cs[b]), 64-uint64(p.cs[b])
}

func admCM0Vec(r *admCM16Row, p *admCMParams, trunc bool) [3]int64 {
	return admCM0Span(r, p, trunc, false)
}

// admCM0Wide runs 16-column AVX-512 blocks, then at most one AVX2 block,
// then the portable code.
func admCM0Wide(r *admCM16Row, p *admCMParams, trunc bool) [3]int64 {
	return admCM0Span(r, p, trunc, true)
}

func admCM0Span(r *admCM16Row, p *admCMParams, trunc, wide bool) [3]int64 {
	n := len(r.src[0])
	v := n &^ 7
	if trunc || p.skip != [3]bool{} || !r.holds(n) {
		v = 0
	}
	m := 0
	if wide {
		m = v &^ 15
	}
	var acc [3]int64
	if v > 0 {
		vp := admCMVecBands(p)
		if m > 0 {
			acc[0], acc[1], acc[2] = admCM0AVX512(&r.src[0], &vp[0].rf[0], m)
		}
		if m < v {
			rest := r.from(m)
			h, vv, d := admCM0AVX2(&rest.src[0], &vp[0].rf[0], v-m)
			acc[0], acc[1], acc[2] = acc[0]+h, acc[1]+vv, acc[2]+d
		}
	}
	if v < n {
		tail := r.from(v)
		s := admCM0(&tail, p, trunc)
		for b := range acc {
			acc[b] += s[b]
		}
	}
	return acc
}

// holds reports whether r's rows and scratch fit n columns.
func (r *admCMRow[T]) holds(n int) bool {
	for b := range 3 {
		if len(r.src[b]) < n || len(r.msk[b]) < n || len(r.fUp[b]) < n+2 || len(r.fMid[b]) < n+2 || len(r.fDn[b]) < n+2 {
			return false
		}
	}
	return len(r.thr) >= n && len(r.colSum) >= n+2
}

// from returns r without its first n columns, sharing the scratch.
func (r *admCMRow[T]) from(n int) admCMRow[T] {
	t := admCMRow[T]{thr: r.thr, colSum: r.colSum}
	for b := range 3 {
		t.src[b], t.msk[b] = r.src[b][n:], r.msk[b][n:]
		t.fUp[b], t.fMid[b], t.fDn[b] = r.fUp[b][n:], r.fMid[b][n:], r.fDn[b][n:]
	}
	return t
}
