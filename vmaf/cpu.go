package vmaf

import "github.com/vmafsink/vmafsink/vmaf/internal/cpu"

// SetCPUMask restricts, for the whole process, the vector instruction
// sets the native engine's kernels use, as libvmaf's --cpumask does. A set
// bit turns a set off, with libvmaf's x86 values: SSE2=1, SSSE3=2,
// SSE4.1=4, AVX2=8, AVX512=16, AVX512ICL=32; each set builds on the ones
// below it, so turning one off turns off every set above it too. 0 lifts
// the restriction.
//
// Call it before NewContext: extractors choose their kernels when a
// Context makes them, so a Context already running keeps its own. Every
// vector kernel gives the portable code's values bit for bit, so the mask
// changes speed, never scores. What each bit turns off:
//
//   - AVX512 (16): integer VIF's and ADM's AVX-512 kernels, which fall back
//     to their AVX2 ones, and the AVX-512 kernels of CAMBI and PSNR-HVS.
//   - AVX2 (8): the AVX2 kernels of integer VIF, ADM and motion, of float
//     VIF's filters, float motion's blur and SpEED; the portable Go code
//     runs instead (and AVX-512 goes too).
//   - SSE4.1 (4), SSSE3 (2): no kernel uses these alone; either turns off
//     AVX2 and AVX-512 with it.
//   - SSE2 (1): float ADM's SSE2 loops, and with it every vector kernel.
//   - AVX512ICL (32): nothing; no kernel needs Ice Lake's extensions.
//
// The purego build tag, or an architecture other than amd64, runs the
// portable code whatever the mask.
func SetCPUMask(mask uint64) { cpu.SetMask(mask) }
