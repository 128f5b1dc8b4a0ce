// Package cpu says which vector instruction sets the engine's kernels may
// use: what the machine has, less what the process-wide mask turns off.
// Extractors read it when an instance is made, so a mask set before a
// Context is made applies to every kernel that Context runs.
package cpu

import (
	"sync/atomic"

	"golang.org/x/sys/cpu"
)

// The mask bits are libvmaf's x86 CPU flags: a set bit turns that
// instruction set off, and with it every set above it, which builds on it.
const (
	SSE2      uint64 = 1 << iota // the SSE2 kernels (and everything newer)
	SSSE3                        // SSSE3 and newer
	SSE41                        // SSE4.1 and newer
	AVX2                         // AVX2 (with FMA) and newer
	AVX512                       // AVX-512 (F, BW, VL, VNNI) and newer
	AVX512ICL                    // Ice Lake's AVX-512 extensions
)

var mask atomic.Uint64

// SetMask sets the process-wide restriction mask; 0 lifts it.
func SetMask(m uint64) { mask.Store(m) }

// Mask is the restriction mask last set.
func Mask() uint64 { return mask.Load() }

// Flags are the instruction sets kernels may use, as read at one moment.
type Flags struct {
	SSE2, SSSE3, SSE41 bool
	// AVX2 includes FMA: every AVX2 kernel here may use it.
	AVX2 bool
	// AVX512 is F, BW, VL and VNNI, which the AVX-512 kernels need.
	AVX512    bool
	AVX512ICL bool
}

// X86 is what this machine has, before the mask.
var X86 = Flags{
	SSE2:   cpu.X86.HasSSE2,
	SSSE3:  cpu.X86.HasSSE2 && cpu.X86.HasSSSE3,
	SSE41:  cpu.X86.HasSSE2 && cpu.X86.HasSSSE3 && cpu.X86.HasSSE41,
	AVX2:   cpu.X86.HasAVX2 && cpu.X86.HasFMA,
	AVX512: cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VNNI,
	AVX512ICL: cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL &&
		cpu.X86.HasAVX512VNNI && cpu.X86.HasAVX512VBMI && cpu.X86.HasAVX512VBMI2 && cpu.X86.HasAVX512BITALG &&
		cpu.X86.HasAVX512VPOPCNTDQ && cpu.X86.HasAVX512VPCLMULQDQ && cpu.X86.HasAVX512GFNI && cpu.X86.HasAVX512VAES,
}

// Get is what kernels may use now: the machine's sets less the masked
// ones and everything above the lowest masked one.
func Get() Flags { return X86.restrict(Mask()) }

func (f Flags) restrict(m uint64) Flags {
	sets := []*bool{&f.SSE2, &f.SSSE3, &f.SSE41, &f.AVX2, &f.AVX512, &f.AVX512ICL}
	off := false
	for i, s := range sets {
		off = off || m&(1<<i) != 0
		if off {
			*s = false
		}
	}
	return f
}
