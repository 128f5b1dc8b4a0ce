package adm

// admKernels is one implementation of ADM's row kernels. Every set must
// give the bits of the portable one (admScalarKernels); vector sets only
// change how a row is computed, never what. Each kernel works on whole
// rows or column ranges that its caller has sliced, so the edge handling
// (mirroring, libvmaf's vector-loop quirks) stays in one place, the
// portable drivers.
type admKernels struct {
	name string

	// dwt0Vert8 and dwt0Vert16 filter four picture rows vertically into a
	// level-0 low-pass and high-pass row, centred on zero and rounded to
	// 16 bits (dropping 8 bits, or bpc bits for deeper samples).
	dwt0Vert8  func(lo, hi []int16, r *[4][]byte)
	dwt0Vert16 func(lo, hi []int16, r *[4][]uint16, bpc uint)
	// dwt0Horiz filters and decimates a vertical-pass row pair into
	// len(ll) outputs of the LL, h, v and d bands; output j reads lo and
	// hi at 2j .. 2j+3 (the caller pads them).
	dwt0Horiz func(ll []int32, det *[3][]int16, lo, hi []int16)
	// decouple0 splits a level-0 row into restored and additive detail and
	// weights both by the CSF (see admDecouple16Row).
	decouple0 func(r *admDecouple16Row, gain float64)
	// cube0 is the sum of |v|^3 over a row.
	cube0 func(row []int16) uint64
	// cm0 is the level-0 masked cube sum of one row (see admCM16Row);
	// trunc truncates the threshold's centre term to 16 bits, as libvmaf
	// does outside its vector loop.
	cm0 func(r *admCM16Row, p *admCMParams, trunc bool) [3]int64

	// dwtNVert filters four rows of a level's input vertically into a
	// low-pass and a high-pass row, rounding by p.vShift.
	dwtNVert func(lo, hi []int32, r *[4][]int32, p *admDWTNParams)
	// dwtNHoriz is dwt0Horiz for levels 1 to 3 (rounding by p.hShift);
	// ll may be nil when no level follows.
	dwtNHoriz func(ll []int32, det *[3][]int32, lo, hi []int32, p *admDWTNParams)
	// decoupleN is decouple0 for levels 1 to 3.
	decoupleN func(r *admDecouple32Row, gain float64)
	// cubeN is the denominator sum of a level 1 to 3 row: |v|^3 with the
	// square rounded down by sq bits and each cube by cs bits.
	cubeN func(row []int32, sq, cs uint) uint64
	// cmN is cm0 for levels 1 to 3.
	cmN func(r *admCM32Row, p *admCMParams) [3]int64
}

// admScalarKernels works on every architecture and is the reference the
// vector kernels are tested against.
var admScalarKernels = admKernels{
	name:       "scalar",
	dwt0Vert8:  admDWT0Vert8,
	dwt0Vert16: admDWT0Vert16,
	dwt0Horiz:  admDWT0Horiz,
	decouple0:  admDecouple0,
	cube0:      admCube0,
	cm0:        admCM0,
	dwtNVert:   admDWTNVert,
	dwtNHoriz:  admDWTNHoriz,
	decoupleN:  admDecoupleN,
	cubeN:      admCubeN,
	cmN:        admCMN,
}

// admDecouple16Row holds one level-0 row of the six detail bands being
// decoupled and the five bands made from them, all over the same
// columns. Each array is indexed by orientation (h, v, d).
type admDecouple16Row struct {
	o, t     [3][]int16 // reference and distorted detail
	rst, add [3][]int16 // restored and additive detail
	// The CSF-weighted restored and additive detail (maskers) and their
	// contributions to the masking threshold.
	mR, fR, mA, fA [3][]int16
}

// admDecouple32Row is admDecouple16Row for levels 1 to 3, with the CSF
// factors of the level.
type admDecouple32Row struct {
	o, t           [3][]int32
	rst, add       [3][]int32
	mR, fR, mA, fA [3][]int32
	rf             [3]int64 // CSF factors in Q32
}

// admCMRow is what the masking of one row reads, over the same columns:
// the source, the masker of the row, and the masker's threshold
// contributions of the row and the rows above and below it. The
// threshold of a column also takes the contributions of the columns on
// either side, so fUp, fMid and fDn hold one more column at each end
// (index 0 is the column before the first). Both instances have the same
// layout, which the assembly relies on (see kernels_amd64_test.go).
type admCMRow[T int16 | int32] struct {
	src, msk       [3][]T
	fUp, fMid, fDn [3][]T
	// Scratch: the threshold of each column, and the sums of the three
	// rows' contributions over the orientations, column by column.
	thr, colSum []int32
}

// admCM16Row is the masking row of level 0, admCM32Row that of levels 1
// to 3.
type (
	admCM16Row = admCMRow[int16]
	admCM32Row = admCMRow[int32]
)

// admCMParams are the fixed-point parameters of one level's masking,
// per orientation.
type admCMParams struct {
	rf   [3]int64 // CSF factor of the source
	sub  [3]uint  // level 0: threshold to the source's Q format
	sq   [3]uint  // the squares drop sq bits (rounded)
	cs   [3]uint  // the cubes drop cs bits (rounded)
	skip [3]bool  // orientation whose terms all vanish (see adm.level0)
}

// admDWTNParams are the roundings of one level 1 to 3 transform.
type admDWTNParams struct {
	vShift, hShift uint
	vRound, hRound int64
}

// admKernelSupport is a kernel set and whether this machine runs it.
type admKernelSupport struct {
	k  *admKernels
	ok bool
}
