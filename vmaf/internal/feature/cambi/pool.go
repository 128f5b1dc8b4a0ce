package cambi

// topKMean is the mean of the k = topk·n largest of n responses (at
// least one), summed in float64 as libvmaf does, given the positive
// ones (pos, in raster order) and their sum. Responses are never
// negative and most are 0, so when no more than k are positive their
// sum is the sum of the k largest; otherwise they are partially sorted
// to find the k largest. Only the order of the float64 additions can
// differ from libvmaf's, far below the output's precision.
func topKMean(pos []float32, sum float64, n int, topk float64) float64 {
	k := min(max(int(topk*float64(n)), 1), n)
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
