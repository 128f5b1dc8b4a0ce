package floatadm

import "math"

// powf reproduces glibc's powf (since 2.27) as its x86-64 build runs on
// processors with FMA, which libvmaf's norms call: a table-driven log2
// and exp2 in double, the result rounded once to float32. Its result is
// not always the correctly rounded power (0.82 ulp worst case), and a
// norm off by an ulp shows in the sixth decimal of a score now and then,
// so the algorithm, its tables and its fused multiply-adds are kept.
//
// x must be >= 0 and y > 0 and finite, which holds for every call here.
func powf(x, y float32) float32 {
	ix := math.Float32bits(x)
	switch {
	case ix == 0:
		return 0
	case ix >= 0x7f800000: // +Inf or NaN
		return x * x
	case ix < 0x00800000: // subnormal: normalise, exponent goes negative
		ix = math.Float32bits(x*0x1p23) - 23<<23
	}
	ylogx := float64(y) * log2Inline(ix)
	if math.Float64bits(ylogx)>>47&0xffff >= math.Float64bits(126.0)>>47 {
		if ylogx > 0x1.fffffffd1d571p+6 {
			return float32(math.Inf(1))
		}
		if ylogx <= -150 {
			return 0
		}
	}
	return float32(exp2Inline(ylogx))
}

// log2Table holds 1/c and log2(c) for 16 subintervals of [0x3f330000
// as float, twice that).
var log2Table = [16][2]float64{
	{0x1.661ec79f8f3bep+0, -0x1.efec65b963019p-2},
	{0x1.571ed4aaf883dp+0, -0x1.b0b6832d4fca4p-2},
	{0x1.49539f0f010bp+0, -0x1.7418b0a1fb77bp-2},
	{0x1.3c995b0b80385p+0, -0x1.39de91a6dcf7bp-2},
	{0x1.30d190c8864a5p+0, -0x1.01d9bf3f2b631p-2},
	{0x1.25e227b0b8eap+0, -0x1.97c1d1b3b7afp-3},
	{0x1.1bb4a4a1a343fp+0, -0x1.2f9e393af3c9fp-3},
	{0x1.12358f08ae5bap+0, -0x1.960cbbf788d5cp-4},
	{0x1.0953f419900a7p+0, -0x1.a6f9db6475fcep-5},
	{0x1p+0, 0x0p+0},
	{0x1.e608cfd9a47acp-1, 0x1.338ca9f24f53dp-4},
	{0x1.ca4b31f026aap-1, 0x1.476a9543891bap-3},
	{0x1.b2036576afce6p-1, 0x1.e840b4ac4e4d2p-3},
	{0x1.9c2d163a1aa2dp-1, 0x1.40645f0c6651cp-2},
	{0x1.886e6037841edp-1, 0x1.88e9c2c1b9ff8p-2},
	{0x1.767dcf5534862p-1, 0x1.ce0a44eb17bccp-2},
}

// log2Poly approximates log1p(r)/ln2.
var log2Poly = [5]float64{
	0x1.27616c9496e0bp-2, -0x1.71969a075c67ap-2,
	0x1.ec70a6ca7baddp-2, -0x1.7154748bef6c8p-1,
	0x1.71547652ab82bp0,
}

// log2Inline is log2 of the positive normal float32 with bits ix.
func log2Inline(ix uint32) float64 {
	const off = 0x3f330000
	tmp := ix - off
	i := tmp >> (23 - 4) % 16
	top := tmp & 0xff800000
	z := float64(math.Float32frombits(ix - top))
	k := float64(int32(top) >> 23)
	invc, logc := log2Table[i][0], log2Table[i][1]
	r := math.FMA(z, invc, -1)
	y0 := logc + k
	r2 := r * r
	y := math.FMA(log2Poly[0], r, log2Poly[1])
	p := math.FMA(log2Poly[2], r, log2Poly[3])
	r4 := r2 * r2
	q := math.FMA(log2Poly[4], r, y0)
	q = math.FMA(p, r2, q)
	return math.FMA(y, r4, q)
}

// exp2Table[i] is the bits of 2^(i/32) less i<<47.
var exp2Table = [32]uint64{
	0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
	0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
	0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
	0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
	0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
	0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
	0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
	0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
}

var exp2Poly = [3]float64{0x1.c6af84b912394p-5, 0x1.ebfce50fac4f3p-3, 0x1.62e42ff0c52d6p-1}

// exp2Inline is 2^x for x in about [-150, 128].
func exp2Inline(x float64) float64 {
	const shift = 0x1.8p+52 / 32
	kd := x + shift // rounds x to a multiple of 1/32
	ki := math.Float64bits(kd)
	kd -= shift
	r := x - kd
	t := exp2Table[ki%32] + ki<<(52-5)
	s := math.Float64frombits(t)
	z := math.FMA(exp2Poly[0], r, exp2Poly[1])
	r2 := r * r
	y := math.FMA(exp2Poly[2], r, 1)
	y = math.FMA(z, r2, y)
	return y * s
}
