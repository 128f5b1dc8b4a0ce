package main

import (
	"testing"
)

// Reading a y4m input and giving its frames back, two at a time as the
// engine's pair release does, reuses the input's buffers: nothing is
// allocated per frame.
func TestY4MReadingAllocs(t *testing.T) {
	s := &settings{}
	src, err := s.openInput(goldenY4M(t, "flower_576x324_ref.y4m"), false, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer src.close()
	pairs := newPairPool(2)
	allocs := testing.AllocsPerRun(20, func() {
		a, err := src.next()
		if err != nil {
			t.Fatal(err)
		}
		b, err := src.next()
		if err != nil {
			t.Fatal(err)
		}
		pr := <-pairs
		pr.ref, pr.dist = a.release, b.release
		pr.fn()
	})
	if allocs > 0 {
		t.Errorf("%.1f allocations per pair", allocs)
	}
}
