//go:build !purego

package vif

import (
	"testing"
	"unsafe"
)

// TestVIFVecTapsLayout checks the offsets internal/asmgen/vif compiles
// into the AVX2 kernels.
func TestVIFVecTapsLayout(t *testing.T) {
	var v vifVecTaps
	if o := unsafe.Offsetof(v.w32); o != 288 {
		t.Errorf("w32 at %d, the kernels read it at 288", o)
	}
	if o := unsafe.Offsetof(v.f64); o != 576 {
		t.Errorf("f64 at %d, the kernels read it at 576", o)
	}
	if o := unsafe.Offsetof(v.pairs); o != 864 {
		t.Errorf("pairs at %d, the kernels read them at 864", o)
	}
	if o := unsafe.Offsetof(v.corr); o != 1152 {
		t.Errorf("corr at %d, the kernels read it at 1152", o)
	}
	if o := unsafe.Offsetof(v.shift); o != 1184 {
		t.Errorf("shift at %d, the kernels read it at 1184", o)
	}
	if o := unsafe.Offsetof(v.oddPairs); o != 1192 {
		t.Errorf("oddPairs at %d, the kernels read them at 1192", o)
	}
	taps := vifFilters[3]
	tv := vifVecTapsFor(taps)
	if tv == nil || tv.w32[1][7] != uint32(taps[1]) || tv.f64[0][3] != float64(taps[0]) || tv.w16[0][0] != uint32(taps[0])*0x10001 {
		t.Errorf("scale 3 vector taps %+v do not hold %v", tv, taps)
	}
	if vifVecTapsFor(append([]uint16(nil), taps...)) != nil {
		t.Error("a copy of a window is taken for the window itself")
	}
}
