package pipeline

import (
	"sync"
	"testing"
	"time"
)

// Two independent sources, one much faster than the other, stay within
// MaxLead frames of each other, and every frame is paired.
func TestRunnerLeadKeepsIndependentSidesInStep(t *testing.T) {
	const frames, lead = 40, 3
	r := newTestRunner(t, &fakeEngine{}, func(c *Config) {
		c.Pairing = PairByOrder
		c.MaxPending, c.MaxLead = 50, lead
		c.LeadProbe = time.Minute // never release in this test
	})
	fs := newFrames(t)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // the fast side
		defer wg.Done()
		for i := range frames {
			push(t, r, Ref, fs.frame(byte(i), -1))
		}
	}()
	go func() { // the slow side
		defer wg.Done()
		for i := range frames {
			time.Sleep(time.Millisecond)
			push(t, r, Dist, fs.frame(byte(i), -1))
		}
	}()
	wg.Wait()
	finish(t, r)
	st := r.Status()
	c := st.Counters
	if c.Pairs != frames || c.Unpaired != [2]uint64{} || c.LeadReleases != 0 || c.Stalls != 0 {
		t.Errorf("pairs %d unpaired %v lead releases %d stalls %d, want %d, none, 0, 0",
			c.Pairs, c.Unpaired, c.LeadReleases, c.Stalls, frames)
	}
	if h := st.PendingHigh[Ref]; h > lead {
		t.Errorf("the fast side had %d frames waiting at once, want at most %d", h, lead)
	}
	fs.checkReleased()
}

// When the other side can only deliver after this one has run further
// ahead than MaxLead (a tee whose other branch encodes with a latency of
// ten frames, pushed from the tee's one thread), the wait at MaxLead ends
// after the probe time, once, and nothing is lost.
func TestRunnerLeadReleasesWhenOtherSideDependsOnThisOne(t *testing.T) {
	const frames, latency, lead = 30, 10, 3
	r := newTestRunner(t, &fakeEngine{}, func(c *Config) {
		c.Pairing = PairByOrder
		c.MaxPending, c.MaxLead = 50, lead
		c.LeadProbe = 20 * time.Millisecond
	})
	fs := newFrames(t)
	for i := range frames + latency {
		if i < frames {
			push(t, r, Ref, fs.frame(byte(i), -1))
		}
		if i >= latency {
			push(t, r, Dist, fs.frame(byte(i-latency), -1))
		}
	}
	finish(t, r)
	st := r.Status()
	c := st.Counters
	if c.Pairs != frames || c.Unpaired != [2]uint64{} || c.LeadReleases != 1 || c.Stalls != 0 {
		t.Errorf("pairs %d unpaired %v lead releases %d stalls %d, want %d, none, 1, 0",
			c.Pairs, c.Unpaired, c.LeadReleases, c.Stalls, frames)
	}
	// The tee pushes a reference frame before the distorted frame that
	// frees one: latency+1 wait at the peak.
	if h := st.PendingHigh[Ref]; h != latency+1 {
		t.Errorf("the reference side had %d frames waiting at once, want %d", h, latency+1)
	}
	// A flush starts the next segment with the lead limit on again.
	r2 := newTestRunner(t, &fakeEngine{}, func(c *Config) {
		c.Pairing = PairByOrder
		c.MaxPending, c.MaxLead = 50, lead
		c.LeadProbe = 20 * time.Millisecond
	})
	for i := range lead + 1 {
		push(t, r2, Ref, fs.frame(byte(i), -1))
	}
	r2.FlushStart(Ref)
	r2.FlushStop(Ref)
	for i := range lead + 1 {
		push(t, r2, Ref, fs.frame(byte(i), -1))
	}
	if c := r2.Status().Counters; c.LeadReleases != 2 {
		t.Errorf("lead releases %d across a flush, want 2", c.LeadReleases)
	}
	r2.Close()
	fs.checkReleased()
}
