package psnrhvs

// The 8-point forward DCT of Daala (od_bin_fdct8), which libvmaf's
// PSNR-HVS uses: an integer lifting implementation, orthonormal up to its
// rounding. Every lifting step's rounding is part of the result, so the
// steps are kept exactly, in int32 like C's int.

// halve is Daala's unbiased right shift by one: it rounds toward zero
// rather than toward minus infinity.
func halve(a int32) int32 { return (a + int32(uint32(a)>>31)) >> 1 }

// fdct8 transforms x0..x7 into their coefficients, lowest frequency
// first. (Values in and out pass in registers.)
func fdct8(x0, x1, x2, x3, x4, x5, x6, x7 int32) (y0, y1, y2, y3, y4, y5, y6, y7 int32) {
	t0, t4, t2, t6, t7, t3, t5, t1 := x0, x1, x2, x3, x4, x5, x6, x7

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

	return t0, t1, t2, t3, t4, t5, t6, t7
}

// fdct8x8 transforms the 8x8 block b (row-major) in place: columns
// first, then the columns of that result, so that b[8*i+j] ends as the
// coefficient of vertical frequency i and horizontal frequency j.
func fdct8x8(b *[64]int32) {
	var z [64]int32
	for i := range 8 {
		r := (*[8]int32)(z[8*i:])
		r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7] =
			fdct8(b[i], b[8+i], b[16+i], b[24+i], b[32+i], b[40+i], b[48+i], b[56+i])
	}
	for i := range 8 {
		r := (*[8]int32)(b[8*i:])
		r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7] =
			fdct8(z[i], z[8+i], z[16+i], z[24+i], z[32+i], z[40+i], z[48+i], z[56+i])
	}
}
