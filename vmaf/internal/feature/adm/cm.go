package adm

// Contrast masking: each CSF-weighted source coefficient is reduced by the
// masking threshold around it (taken from the masker bands) and what
// remains is cubed and summed. The DLM numerator uses the restored detail
// as source and the additive impairment as masker; AIM swaps the two.
//
// The threshold of a sample is, over the three orientations, the 3x3 sum
// of the masker's contributions (|masker|/30) around it, with the centre
// sample counted at /15 instead.

// admRowNeighbours returns the rows above and below row i of an n-row
// band as the masking filter reads them: reflected about row 0 at the top,
// repeated at the bottom (and likewise for columns, see admRing.padColumns).
func admRowNeighbours(i, n int) (up, dn int) {
	up, dn = i-1, i+1
	if i == 0 {
		up = min(1, n-1)
	}
	if i == n-1 {
		dn = n - 1
	}
	return up, dn
}

// admBoxSums sets thr[j] to the sum of colSum[j : j+3], the 3x3 sum of
// the rows' contributions around column j.
func admBoxSums(thr, colSum []int32) {
	n := len(thr)
	l, c, r := colSum[:n], colSum[1:n+1], colSum[2:n+2]
	for j := range thr {
		thr[j] = l[j] + c[j] + r[j]
	}
}

// Level-0 masking shifts per orientation (h, v, d): the threshold is
// brought to the source's Q format, the squares drop 29 (30) bits.
var (
	admCM0SubShift = [3]uint{10, 10, 12}
	admCM0SqShift  = [3]uint{29, 29, 30}
)

// admCM0 is the portable level-0 masking kernel. The centre term of the
// threshold is |masker|/15 in Q12; libvmaf truncates it to 16 bits outside
// the columns its AVX-512 loop covers (trunc), which only shows for
// maskers of 15360 and more (thin lines at full contrast).
func admCM0(r *admCM16Row, p *admCMParams, trunc bool) (acc [3]int64) {
	n := len(r.src[0])
	thr, cs := r.thr[:n], r.colSum[:n+2]
	clear(cs)
	for t := range 3 {
		fu, fc, fd := r.fUp[t][:n+2], r.fMid[t][:n+2], r.fDn[t][:n+2]
		for j := range cs {
			cs[j] += int32(fu[j]) + int32(fc[j]) + int32(fd[j])
		}
	}
	admBoxSums(thr, cs)
	for t := range 3 {
		fc, mc := r.fMid[t][1:n+1], r.msk[t][:n]
		for j := range thr {
			c := (8738*admAbs32(int32(mc[j])) + 2048) >> 12
			if trunc {
				c = int32(int16(c))
			}
			thr[j] += c - int32(fc[j])
		}
	}
	for t := range 3 {
		if p.skip[t] {
			continue
		}
		s := r.src[t][:n]
		rf, sub := int32(p.rf[t]), p.sub[t]
		sq, cs := p.sq[t], p.cs[t]
		sqRnd, cRnd := int64(1)<<(sq-1), admRoundHalf(int(cs))
		var inner int64
		for j, v := range s {
			// A term of x <= 0 is skipped; taken as 0 it adds nothing,
			// which saves a branch the predictor cannot learn.
			x64 := int64(max(admAbs32(int32(v)*rf)-thr[j]<<sub, 0))
			x2 := int64(int32((x64*x64 + sqRnd) >> sq))
			inner += (x2*x64 + cRnd) >> cs
		}
		acc[t] = inner
	}
	return acc
}

// admCMN is admCM0 for levels 1 to 3, whose centre term is the Q32
// product |m|*(2^32/15) less 2^31, shifted down by 32 (libvmaf's rounding
// constant wraps to -2^31).
func admCMN(r *admCM32Row, p *admCMParams) (acc [3]int64) {
	n := len(r.src[0])
	thr, cs := r.thr[:n], r.colSum[:n+2]
	clear(cs)
	for t := range 3 {
		fu, fc, fd := r.fUp[t][:n+2], r.fMid[t][:n+2], r.fDn[t][:n+2]
		for j := range cs {
			cs[j] += fu[j] + fc[j] + fd[j]
		}
	}
	admBoxSums(thr, cs)
	for t := range 3 {
		fc, mc := r.fMid[t][1:n+1], r.msk[t][:n]
		for j := range thr {
			thr[j] += int32((286331153*int64(admAbs32(mc[j]))-(1<<31))>>32) - fc[j]
		}
	}
	for t := range 3 {
		s := r.src[t][:n]
		rf := p.rf[t]
		sq, cs := p.sq[t], p.cs[t]
		sqRnd, cRnd := int64(1)<<(sq-1), admRoundHalf(int(cs))
		var inner int64
		for j, v := range s {
			x64 := int64(max(admAbs32(int32((int64(v)*rf+(1<<27))>>28))-thr[j], 0))
			x2 := int64(int32((x64*x64 + sqRnd) >> sq))
			inner += (x2*x64 + cRnd) >> cs
		}
		acc[t] = inner
	}
	return acc
}
