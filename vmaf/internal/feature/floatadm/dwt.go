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
		r0 := src[x.tapY[0][i]*sstride:][:w]
		r1 := src[x.tapY[1][i]*sstride:][:w]
		r2 := src[x.tapY[2][i]*sstride:][:w]
		r3 := src[x.tapY[3][i]*sstride:][:w]
		for j := range lo {
			lo[j] = filter4(&dwtLo, r0[j], r1[j], r2[j], r3[j])
		}
		if !loOnly {
			for j := range hi {
				hi[j] = filter4(&dwtHi, r0[j], r1[j], r2[j], r3[j])
			}
		}
		o := i * ow
		a := dst.a[o : o+ow]
		t0, t1, t2, t3 := x.tapX[0][:ow], x.tapX[1][:ow], x.tapX[2][:ow], x.tapX[3][:ow]
		for j := range a {
			a[j] = filter4(&dwtLo, lo[t0[j]], lo[t1[j]], lo[t2[j]], lo[t3[j]])
		}
		if loOnly {
			continue
		}
		v, bh, d := dst.v[o:o+ow], dst.h[o:o+ow], dst.d[o:o+ow]
		for j := range v {
			v[j] = filter4(&dwtHi, lo[t0[j]], lo[t1[j]], lo[t2[j]], lo[t3[j]])
		}
		for j := range bh {
			s0, s1, s2, s3 := hi[t0[j]], hi[t1[j]], hi[t2[j]], hi[t3[j]]
			bh[j] = filter4(&dwtLo, s0, s1, s2, s3)
			d[j] = filter4(&dwtHi, s0, s1, s2, s3)
		}
	}
}
