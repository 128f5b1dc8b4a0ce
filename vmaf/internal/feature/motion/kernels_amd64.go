//go:build !purego

package motion

import (
	"github.com/vmafsink/vmafsink/vmaf/internal/cpu"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/internal/kit"
)

// The AVX2 motion kernels are Go assembly generated with avo by
// internal/asmgen/motion; run go generate in this directory after changing
// it. The wrappers hand the kernels whole vector blocks and finish a row
// with the portable code.
//
//go:generate go run -C ../../../../internal/asmgen ./motion -out ../../vmaf/internal/feature/motion/motion_amd64.s -stubs ../../vmaf/internal/feature/motion/motion_stub_amd64.go -pkg motion

var motionAVX2Kernels = motionKernels{
	name:   "avx2",
	vert8:  motionVert8Vec,
	vert16: motionVert16Vec,
	diff:   motionDiffVec,
	rowSAD: motionRowSADVec,
}

// motionAVX512Kernels keeps 8-bit frames as samples and filters the two
// windows' difference in one pass, 16 columns a block, with word
// multiply-adds (VPMADDWD, VPDPWSSD): the in-order part then reads two
// 1-byte planes rather than two planes of 32-bit sums (8 MiB each at
// 1080p), which bound it, and the per-frame part is a copy. The horizontal
// pass and the vertical pass of 8-bit sums (which 8-bit frames kept as
// sums use) are 16 columns a block too; the 16-bit passes stay AVX2.
var motionAVX512Kernels = motionKernels{
	name:   "avx512",
	vert8:  motionVert8Wide,
	vert16: motionVert16Vec,
	diff:   motionDiffVec,
	diff8:  motionDiff8Wide,
	rowSAD: motionRowSADWide,
}

// motionBestKernels returns the fastest kernel set this machine runs
// under the process's CPU mask.
func motionBestKernels() *motionKernels {
	switch f := cpu.Get(); {
	case f.AVX512:
		return &motionAVX512Kernels
	case f.AVX2:
		return &motionAVX2Kernels
	}
	return &motionScalarKernels
}

// motionKernelSets lists every kernel set this machine runs, for tests.
func motionKernelSets() []*motionKernels {
	sets := []*motionKernels{&motionScalarKernels}
	for _, s := range motionVecKernelSupport() {
		if s.ok {
			sets = append(sets, s.k)
		}
	}
	return sets
}

// motionVecKernelSupport lists every vector kernel set of this build with
// whether this machine runs it.
func motionVecKernelSupport() []motionKernelSupport {
	return []motionKernelSupport{{&motionAVX2Kernels, cpu.X86.AVX2}, {&motionAVX512Kernels, cpu.X86.AVX512}}
}

func motionVert8Vec(out []uint32, r *[5][]byte) {
	n := len(out) &^ 7
	if n > 0 {
		motionVert8AVX2(kit.At(out, n), kit.At(r[0], n), kit.At(r[1], n), kit.At(r[2], n), kit.At(r[3], n), kit.At(r[4], n), n)
	}
	if n < len(out) {
		motionVert8(out[n:], &[5][]byte{r[0][n:], r[1][n:], r[2][n:], r[3][n:], r[4][n:]})
	}
}

// motionVert8Wide runs 16-column AVX-512 blocks, then the AVX2 path.
func motionVert8Wide(out []uint32, r *[5][]byte) {
	n := len(out) &^ 15
	if n > 0 {
		motionVert8AVX512(kit.At(out, n), kit.At(r[0], n), kit.At(r[1], n), kit.At(r[2], n), kit.At(r[3], n), kit.At(r[4], n), n)
	}
	if n < len(out) {
		motionVert8Vec(out[n:], &[5][]byte{r[0][n:], r[1][n:], r[2][n:], r[3][n:], r[4][n:]})
	}
}

func motionVert16Vec(out []uint32, r *[5][]uint16) {
	n := len(out) &^ 7
	if n > 0 {
		motionVert16AVX2(kit.At(out, n), kit.At(r[0], n), kit.At(r[1], n), kit.At(r[2], n), kit.At(r[3], n), kit.At(r[4], n), n)
	}
	if n < len(out) {
		motionVert16(out[n:], &[5][]uint16{r[0][n:], r[1][n:], r[2][n:], r[3][n:], r[4][n:]})
	}
}

func motionDiffVec(v []int32, p, c []uint32, shift uint) bool {
	n := len(v) &^ 7
	any := false
	if n > 0 && shift >= 1 && shift <= 16 {
		any = motionDiffAVX2(kit.At(v, n), kit.At(p, n), kit.At(c, n), n, uint64(shift), 1<<(shift-1), 1<<shift-1)
	} else {
		n = 0
	}
	if n < len(v) {
		any = motionDiff(v[n:], p[n:], c[n:], shift) || any
	}
	return any
}

// motionDiff8Wide runs 16-column AVX-512 blocks, then the portable kernel.
func motionDiff8Wide(v []int32, p, c *[5][]byte) bool {
	n := len(v) &^ 15
	any := false
	if n > 0 {
		pr := [5]*byte{kit.At(p[0], n), kit.At(p[1], n), kit.At(p[2], n), kit.At(p[3], n), kit.At(p[4], n)}
		cr := [5]*byte{kit.At(c[0], n), kit.At(c[1], n), kit.At(c[2], n), kit.At(c[3], n), kit.At(c[4], n)}
		any = motionDiff8AVX512(kit.At(v, n), &pr[0], &cr[0], n)
	}
	if n < len(v) {
		any = motionDiff8(v[n:], &[5][]byte{p[0][n:], p[1][n:], p[2][n:], p[3][n:], p[4][n:]},
			&[5][]byte{c[0][n:], c[1][n:], c[2][n:], c[3][n:], c[4][n:]}) || any
	}
	return any
}

func motionRowSADVec(row []int32, w int) uint32 {
	n := w &^ 7
	var s uint32
	if n > 0 {
		s = motionRowSADAVX2(kit.At(row, n+2*motionRadius), n)
	}
	if n < w {
		s += motionRowSAD(row[n:], w-n)
	}
	return s
}

// motionRowSADWide runs 16-output AVX-512 blocks, then the AVX2 path.
func motionRowSADWide(row []int32, w int) uint32 {
	n := w &^ 15
	var s uint32
	if n > 0 {
		s = motionRowSADAVX512(kit.At(row, n+2*motionRadius), n)
	}
	if n < w {
		s += motionRowSADVec(row[n:], w-n)
	}
	return s
}
