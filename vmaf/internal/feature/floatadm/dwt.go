package floatadm

// Daubechies-2 analysis filters, as float32 like libvmaf's.
var (
	dwtLo = [4]float32{0.482962913144690, 0.836516303737469, 0.224143868041857, -0.129409522550921}
	dwtHi = [4]float32{-0.129409522550921, -0.224143868041857, 0.836516303737469, -0.482962913144690}
)

// taps fills idx[k][o], the input index of filter tap k for output o of a
// length-n signal: taps 2o-1..2o+2, the first mirrored about 0 without
// repeating it, the last ones about n-1 repeating it, as libvmaf does.
func taps(idx *[4][]int, n int) {
	for o := 0; o < (n+1)/2; o++ {
		for k := 0; k < 4; k++ {
			i := 2*o - 1 + k
			if i < 0 {
				i = -i
			} else if i >= n {
				i = 2*n - i - 1
			}
			idx[k][o] = i
		}
	}
}

// filter4 is one output of a filter, summed tap by tap from zero in
// float32 as libvmaf's loop does.
func filter4(f *[4]float32, s0, s1, s2, s3 float32) float32 {
	var acc float32
	acc += float32(f[0] * s0)
	acc += float32(f[1] * s1)
	acc += float32(f[2] * s2)
	acc += float32(f[3] * s3)
	return acc
}

// bands are one level of the transform, each (w+1)/2 wide with that
// stride.
type bands struct{ a, h, v, d []float32 }

// dwt2 transforms the w×h picture src (stride sstride) into dst: the
// approximation a (low-pass both ways), v (low-pass vertically,
// high-pass horizontally), h (high then low) and d (high both ways). With
// loOnly it computes only a. tmpLo and tmpHi hold w samples.
func (x *adm) dwt2(src []float32, sstride, w, h int, dst *bands, loOnly bool) {
	taps(&x.tapY, h)
	taps(&x.tapX, w)
	ow := (w + 1) / 2
	lo, hi := x.tmpLo[:w], x.tmpHi[:w]
	for i := 0; i < (h+1)/2; i++ {
		r0 := src[x.tapY[0][i]*sstride:][:len(lo)]
		r1 := src[x.tapY[1][i]*sstride:][:len(lo)]
		r2 := src[x.tapY[2][i]*sstride:][:len(lo)]
		r3 := src[x.tapY[3][i]*sstride:][:len(lo)]
		// Both filters, whether or not hi is wanted: a skipped scale 0
		// is rare.
		if x.sse2 {
			vertical(lo, hi, r0, r1, r2, r3)
		} else {
			verticalGo(lo, hi, r0, r1, r2, r3, 0)
		}
		o := i * ow
		if loOnly {
			x.dwtRow(lo, dst.a[o:o+ow], x.spare[:ow])
			continue
		}
		x.dwtRow(lo, dst.a[o:o+ow], dst.v[o:o+ow])
		x.dwtRow(hi, dst.h[o:o+ow], dst.d[o:o+ow])
	}
}

// dwtRow filters and decimates one row src, into lo with the low-pass
// filter and into hi with the high-pass one. Outputs whose taps fall
// inside the row take them directly, the others through the mirrored
// taps.
func (x *adm) dwtRow(src, lo, hi []float32) {
	w := len(src)
	t0, t1, t2, t3 := x.tapX[0], x.tapX[1], x.tapX[2], x.tapX[3]
	edge := func(j int) {
		s0, s1, s2, s3 := src[t0[j]], src[t1[j]], src[t2[j]], src[t3[j]]
		lo[j] = filter4(&dwtLo, s0, s1, s2, s3)
		hi[j] = filter4(&dwtHi, s0, s1, s2, s3)
	}
	// Output j reads 2j-1..2j+2: inside the row for 1 <= j <= (w-3)/2.
	end := max((w-3)/2+1, 1)
	end = min(end, len(lo))
	edge(0)
	if x.sse2 {
		horizontal(src, lo, hi, end)
	} else {
		horizontalGo(src, lo, hi, 1, end)
	}
	for j := max(end, 1); j < len(lo); j++ {
		edge(j)
	}
}

// horizontalGo sets lo[j] and hi[j] for j in [from, end), whose taps
// 2j-1..2j+2 lie inside src.
func horizontalGo(src, lo, hi []float32, from, end int) {
	hi = hi[:len(lo)]
	for j := from; j < end; j++ {
		s := src[2*j-1 : 2*j+3 : 2*j+3]
		lo[j] = filter4(&dwtLo, s[0], s[1], s[2], s[3])
		hi[j] = filter4(&dwtHi, s[0], s[1], s[2], s[3])
	}
}

// verticalGo sets lo[j] and hi[j] to the low- and high-pass outputs of
// column j of rows r0..r3, from column from on.
func verticalGo(lo, hi, r0, r1, r2, r3 []float32, from int) {
	hi, r0, r1, r2, r3 = hi[:len(lo)], r0[:len(lo)], r1[:len(lo)], r2[:len(lo)], r3[:len(lo)]
	for j := from; j < len(lo); j++ {
		s0, s1, s2, s3 := r0[j], r1[j], r2[j], r3[j]
		lo[j] = filter4(&dwtLo, s0, s1, s2, s3)
		hi[j] = filter4(&dwtHi, s0, s1, s2, s3)
	}
}
