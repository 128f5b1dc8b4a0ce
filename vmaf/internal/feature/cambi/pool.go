package cambi

import "unsafe"

// topKMean is the mean of the k = topk·n largest responses (at least
// one), summed in float64 as libvmaf does. Responses are never
// negative and most are 0, so when no more than k are positive the sum
// of the positive ones is the sum of the k largest; otherwise the
// positive ones are partially sorted to find the k largest. Only the
// order of the float64 additions can differ from libvmaf's, far below
// the output's precision.
func topKMean(c []float32, topk float64, b *buffers) float64 {
	n := len(c)
	k := min(max(int(topk*float64(n)), 1), n)
	pos := b.sel[:0]
	var sum float64
	// Responses are +0 or positive: skip zeros two at a time by their
	// bits.
	p := unsafe.Pointer(unsafe.SliceData(c))
	i := 0
	for ; i+2 <= n; i += 2 {
		if *(*uint64)(unsafe.Add(p, 4*i)) == 0 {
			continue
		}
		for _, v := range c[i : i+2] {
			if v > 0 {
				pos = append(pos, v)
				sum += float64(v)
			}
		}
	}
	for _, v := range c[i:] {
		if v > 0 {
			pos = append(pos, v)
			sum += float64(v)
		}
	}
	if len(pos) <= k {
		return sum / float64(k)
	}
	selectLargest(pos, k)
	sum = 0
	for _, v := range pos[:k] {
		sum += float64(v)
	}
	return sum / float64(k)
}

// selectLargest reorders a so that its k largest values come first
// (Hoare's selection on the k-th largest).
func selectLargest(a []float32, k int) {
	t := k - 1
	lo, hi := 0, len(a)-1
	for lo < hi {
		pivot := a[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for a[i] > pivot {
				i++
			}
			for a[j] < pivot {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case t <= j:
			hi = j
		case t >= i:
			lo = i
		default:
			return // a[j+1:i] all equal the pivot, and t is among them
		}
	}
}
