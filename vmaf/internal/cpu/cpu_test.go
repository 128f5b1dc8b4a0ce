package cpu

import "testing"

func TestRestrict(t *testing.T) {
	all := Flags{true, true, true, true, true, true}
	for _, c := range []struct {
		mask uint64
		want Flags
	}{
		{0, all},
		{AVX512ICL, Flags{true, true, true, true, true, false}},
		{AVX512, Flags{true, true, true, true, false, false}},
		{AVX2 | AVX512, Flags{true, true, true, false, false, false}},
		{AVX2, Flags{true, true, true, false, false, false}},
		{SSSE3, Flags{SSE2: true}},
		{SSE2, Flags{}},
		{1 << 40, all}, // bits libvmaf does not define change nothing
	} {
		if got := all.restrict(c.mask); got != c.want {
			t.Errorf("mask %#x: got %+v, want %+v", c.mask, got, c.want)
		}
	}
	// The mask never adds what the machine lacks.
	if got := (Flags{SSE2: true}).restrict(0); got != (Flags{SSE2: true}) {
		t.Errorf("restrict added sets: %+v", got)
	}
}

func TestSetMask(t *testing.T) {
	defer SetMask(0)
	SetMask(AVX2)
	if f := Get(); f.AVX2 || f.AVX512 || f.AVX512ICL {
		t.Errorf("AVX2 masked but Get gives %+v", f)
	}
	SetMask(0)
	if Get() != X86 {
		t.Errorf("mask lifted but Get gives %+v, machine %+v", Get(), X86)
	}
}
