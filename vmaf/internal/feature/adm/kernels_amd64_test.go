//go:build !purego

package adm

import (
	"testing"
	"unsafe"
)

// TestADMVecLayout checks the offsets internal/asmgen/adm compiles into
// the AVX2 kernels.
func TestADMVecLayout(t *testing.T) {
	var d16 admDecouple16Row
	var d32 admDecouple32Row
	var c16 admCM16Row
	var c32 admCM32Row
	var vb admCMVecBand
	for _, c := range []struct {
		what      string
		got, want uintptr
	}{
		{"admDecouple16Row.t", unsafe.Offsetof(d16.t), 72},
		{"admDecouple16Row.rst", unsafe.Offsetof(d16.rst), 144},
		{"admDecouple16Row.add", unsafe.Offsetof(d16.add), 216},
		{"admDecouple16Row.mR", unsafe.Offsetof(d16.mR), 288},
		{"admDecouple16Row.fR", unsafe.Offsetof(d16.fR), 360},
		{"admDecouple16Row.mA", unsafe.Offsetof(d16.mA), 432},
		{"admDecouple16Row.fA", unsafe.Offsetof(d16.fA), 504},
		{"admDecouple32Row.fA", unsafe.Offsetof(d32.fA), 504},
		{"admDecouple32Row.rf", unsafe.Offsetof(d32.rf), 576},
		{"admCM16Row.msk", unsafe.Offsetof(c16.msk), 72},
		{"admCM16Row.fUp", unsafe.Offsetof(c16.fUp), 144},
		{"admCM16Row.fMid", unsafe.Offsetof(c16.fMid), 216},
		{"admCM16Row.fDn", unsafe.Offsetof(c16.fDn), 288},
		{"admCM16Row.colSum", unsafe.Offsetof(c16.colSum), 384},
		{"admCM32Row.fDn", unsafe.Offsetof(c32.fDn), 288},
		{"admCM32Row.colSum", unsafe.Offsetof(c32.colSum), 384},
		{"admCMVecBand.sqRnd", unsafe.Offsetof(vb.sqRnd), 32},
		{"admCMVecBand.cRnd", unsafe.Offsetof(vb.cRnd), 64},
		{"admCMVecBand.sub", unsafe.Offsetof(vb.sub), 96},
		{"admCMVecBand.sq", unsafe.Offsetof(vb.sq), 112},
		{"admCMVecBand.cs", unsafe.Offsetof(vb.cs), 128},
		{"admCMVecBand.csNeg", unsafe.Offsetof(vb.csNeg), 144},
		{"admCMVecBand size", unsafe.Sizeof(vb), 160},
	} {
		if c.got != c.want {
			t.Errorf("%s at %d, the kernels read it at %d", c.what, c.got, c.want)
		}
	}
}
