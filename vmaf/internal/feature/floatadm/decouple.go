package floatadm

import "math"

// region is the part of a w×h band a step computes: rows [top, bottom),
// columns [left, right).
type region struct{ left, top, right, bottom int }

// scoredRegion leaves out the 10 % border libvmaf does not score, with
// its truncating conversion of w·0.1-0.5.
func scoredRegion(w, h int) region {
	l := int(float64(w)*borderFactor - 0.5)
	t := int(float64(h)*borderFactor - 0.5)
	return region{l, t, w - l, h - t}
}

// filterRegion is scoredRegion grown by the masking filter's reach, which
// the decoupling and CSF steps compute for it, clipped to the band.
func filterRegion(w, h int) region {
	l := int(float64(w)*borderFactor - 0.5 - 1)
	t := int(float64(h)*borderFactor - 0.5 - 1)
	r := region{l, t, w - l + 2, h - t + 2}
	r.left = max(r.left, 0)
	r.top = max(r.top, 0)
	r.right = min(r.right, w)
	r.bottom = min(r.bottom, h)
	return r
}

const borderFactor = 0.1

// cos1degSq is cos²(1°) rounded to float32.
var cos1degSq = float32(math.Cos(math.Pi/180) * math.Cos(math.Pi/180))

// decouple splits the distorted bands into what is left of the
// reference's detail (restored, r) and what was added (a = dist - r):
// per coefficient the distorted-to-reference ratio clipped to [0, 1]
// times the reference, except where the two (h, v) vectors point within
// 1° of each other, where the gain is allowed up to egl.
func (x *adm) decouple(ref, dis *bands, w, h int) {
	reg := filterRegion(w, h)
	egl := x.p.egl
	const eps float32 = 1e-30
	for i := reg.top; i < reg.bottom; i++ {
		lo, hi := i*w+reg.left, i*w+reg.right
		oH, oV, oD := ref.h[lo:hi], ref.v[lo:hi], ref.d[lo:hi]
		tH, tV, tD := dis.h[lo:hi], dis.v[lo:hi], dis.d[lo:hi]
		// The gains, distorted over reference.
		n := hi - lo
		var k [3][]float32
		ts := [3][]float32{tH, tV, tD}
		for b, o := range [3][]float32{oH, oV, oD} {
			den := x.den[:n]
			for j, v := range o {
				den[j] = v + eps
			}
			k[b] = x.gain[b][:n]
			divRow(k[b], ts[b], den)
		}
		rows := decoupleRows{
			o: [3][]float32{oH, oV, oD}, t: ts, k: k,
			r: [3][]float32{x.r[0][lo:hi], x.r[1][lo:hi], x.r[2][lo:hi]},
			a: [3][]float32{x.a[0][lo:hi], x.a[1][lo:hi], x.a[2][lo:hi]},
		}
		if x.sse2 {
			decoupleRow(&rows, egl)
		} else {
			decoupleGo(&rows, 0, egl)
		}
	}
}

// decoupleRows are one row's reference, distorted and gain values of the
// h, v and d bands, and where the restored and additive values go.
type decoupleRows struct{ o, t, k, r, a [3][]float32 }

// decoupleGo finishes the decoupling of a row from column from on.
func decoupleGo(rows *decoupleRows, from int, egl float64) {
	oH, oV, oD := rows.o[0], rows.o[1], rows.o[2]
	n := len(oH)
	oV, oD = oV[:n], oD[:n]
	tH, tV, tD := rows.t[0][:n], rows.t[1][:n], rows.t[2][:n]
	kH, kV, kD := rows.k[0][:n], rows.k[1][:n], rows.k[2][:n]
	rH, rV, rD := rows.r[0][:n], rows.r[1][:n], rows.r[2][:n]
	aH, aV, aD := rows.a[0][:n], rows.a[1][:n], rows.a[2][:n]
	for j := from; j < n; j++ {
		oh, ov, od := oH[j], oV[j], oD[j]
		th, tv, td := tH[j], tV[j], tD[j]
		sh := clip01(kH[j]) * oh
		sv := clip01(kV[j]) * ov
		sd := clip01(kD[j]) * od

		dot := float32(oh*th) + float32(ov*tv)
		oMag := float32(oh*oh) + float32(ov*ov)
		tMag := float32(th*th) + float32(tv*tv)
		if dot >= 0 && float32(dot*dot) >= float32(float32(cos1degSq*oMag)*tMag) {
			sh = gain(sh, th, egl)
			sv = gain(sv, tv, egl)
			sd = gain(sd, td, egl)
		}
		rH[j], rV[j], rD[j] = sh, sv, sd
		aH[j], aV[j], aD[j] = th-sh, tv-sv, td-sd
	}
}

// clip01 is k clipped to [0, 1], without branches. Unlike libvmaf's
// comparisons it turns -0 into +0, which no later step can tell apart.
func clip01(k float32) float32 { return min(max(k, 0), 1) }

// gain lets the restored coefficient r grow by up to egl towards the
// distorted t. libvmaf scales by the double egl, compares in double and
// stores the result as float32; the two tests run one after the other on
// the updated value, as there.
func gain(r, t float32, egl float64) float32 {
	// float32 of the double minimum is C's MIN stored in a float: t
	// converts exactly, and neither value can be NaN.
	if r > 0 {
		r = float32(min(float64(r)*egl, float64(t)))
	}
	if r < 0 {
		r = float32(max(float64(r)*egl, float64(t)))
	}
	return r
}
