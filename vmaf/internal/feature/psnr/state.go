package psnr

import "fmt"

// AggregateState is what apsnr is computed from: per plane, the squared
// error and the samples compared, as exact integers, so that the totals
// of parts of a stream scored apart add up to the whole stream's.
func (x *extractor) AggregateState() []uint64 {
	if !x.apsnr {
		return nil
	}
	s := make([]uint64, 0, 6)
	s = append(s, x.sse[:]...)
	return append(s, x.n[:]...)
}

// AddAggregateState adds totals AggregateState gave to this instance's.
func (x *extractor) AddAggregateState(s []uint64) error {
	if !x.apsnr {
		if len(s) != 0 {
			return fmt.Errorf("psnr: aggregate state given to an instance without enable_apsnr")
		}
		return nil
	}
	if len(s) != 6 {
		return fmt.Errorf("psnr: aggregate state has %d values, want 6", len(s))
	}
	for i := range x.sse {
		x.sse[i] += s[i]
		x.n[i] += s[3+i]
	}
	return nil
}
