package psnrhvs

// The 8-point forward DCT of Daala (od_bin_fdct8), which libvmaf's
// PSNR-HVS uses: an integer lifting implementation, orthonormal up to its
// rounding. Every lifting step's rounding is part of the result, so the
// steps are kept exactly, in int32 like C's int.

// halve is Daala's unbiased right shift by one: it rounds toward zero
// rather than toward minus infinity.
func halve(a int32) int32 { return (a + int32(uint32(a)>>31)) >> 1 }

// fdct8 transforms in[0], in[stride], ..., in[7*stride] into out[0..7].
func fdct8(out *[8]int32, in []int32, stride int) {
	t0 := in[0]
	t4 := in[1*stride]
	t2 := in[2*stride]
	t6 := in[3*stride]
	t7 := in[4*stride]
	t3 := in[5*stride]
	t5 := in[6*stride]
	t1 := in[7*stride]

	// Sums and differences of mirrored inputs.
	t1 = t0 - t1
	t1h := halve(t1)
	t0 -= t1h
	t4 += t5
	t4h := halve(t4)
	t5 -= t4h
	t3 = t2 - t3
	t2 -= halve(t3)
	t6 += t7
	t6h := halve(t6)
	t7 = t6h - t7

	// Even half: a 4-point DCT-II, itself a 2-point DCT-II and a 2-point
	// DST-IV.
	t0 += t6h
	t6 = t0 - t6
	t2 = t4h - t2
	t4 = t2 - t4
	t0 -= (t4*13573 + 16384) >> 15 // tan(π/8)
	t4 += (t0*11585 + 8192) >> 14  // sin(π/4)
	t0 -= (t4*13573 + 16384) >> 15
	t6 -= (t2*21895 + 16384) >> 15 // tan(3π/16)
	t2 += (t6*15137 + 8192) >> 14  // sin(3π/8)
	t6 -= (t2*21895 + 16384) >> 15

	// Odd half: a 4-point DST-IV.
	t3 += (t5*19195 + 16384) >> 15 // 2 - √2
	t5 += (t3*11585 + 8192) >> 14  // sin(π/4)
	t3 -= (t5*7489 + 4096) >> 13   // √2 - 1/2
	t7 = halve(t5) - t7
	t5 -= t7
	t3 = t1h - t3
	t1 -= t3
	t7 += (t1*3227 + 16384) >> 15 // tan(π/32)
	t1 -= (t7*6393 + 16384) >> 15 // sin(π/16)
	t7 += (t1*3227 + 16384) >> 15
	t5 += (t3*2485 + 4096) >> 13   // tan(3π/32)
	t3 -= (t5*18205 + 16384) >> 15 // sin(3π/16)
	t5 += (t3*2485 + 4096) >> 13

	*out = [8]int32{t0, t1, t2, t3, t4, t5, t6, t7}
}

// fdct8x8 transforms the 8x8 block b (row-major) in place: columns
// first, then the columns of that result, so that b[8*i+j] ends as the
// coefficient of vertical frequency i and horizontal frequency j.
func fdct8x8(b *[64]int32) {
	var z [64]int32
	var row [8]int32
	for i := 0; i < 8; i++ {
		fdct8(&row, b[i:], 8)
		copy(z[8*i:], row[:])
	}
	for i := 0; i < 8; i++ {
		fdct8(&row, z[i:], 8)
		copy(b[8*i:], row[:])
	}
}
