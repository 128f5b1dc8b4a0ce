package attach

import (
	"context"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/pipeline"
)

// TestFaultFeedDropsOldest: a subscriber that reads nothing while more
// frames are scored than the feed holds then gets the newest records, not
// the first ones, and the record after the gap counts every record lost.
// The Runner never waited for it.
func TestFaultFeedDropsOldest(t *testing.T) {
	r := newRunner(t, pipeline.PauseSkip)
	tg, err := NewTarget(Config{Runner: r, Engine: "native"})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	records := tg.Records(ctx)

	const n = feedBuffer + 40
	ref, dist := frames(t, 2, 48, 48)
	for i := range n {
		push(t, r, ref[i%2], dist[i%2])
	}
	r.EndOfStream(pipeline.Ref)
	r.EndOfStream(pipeline.Dist)
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}

	var got []control.Record
	timeout := time.After(time.Minute)
	for len(got) == 0 || got[len(got)-1].Frame != n-1 {
		select {
		case rec := <-records:
			got = append(got, rec)
		case <-timeout:
			t.Fatalf("frame %d never delivered; %d records delivered", n-1, len(got))
		}
	}
	// One record may have been on its way to the reader before the feed
	// filled; all others are the newest feedBuffer.
	if len(got) > feedBuffer+1 {
		t.Errorf("%d records delivered, want at most %d", len(got), feedBuffer+1)
	}
	seen := uint64(0)
	prev := int64(-1)
	for _, rec := range got {
		if uint64(rec.Frame-prev-1) != rec.Dropped {
			t.Fatalf("frame %d after frame %d says %d dropped", rec.Frame, prev, rec.Dropped)
		}
		seen += rec.Dropped + 1
		prev = rec.Frame
	}
	if seen != n {
		t.Errorf("delivered plus dropped = %d, want %d", seen, n)
	}
	if first := got[len(got)-feedBuffer].Frame; first != n-feedBuffer {
		t.Errorf("the kept records start at frame %d, want %d", first, n-feedBuffer)
	}
}

// TestFeed: records pushed before the reader starts arrive as the newest
// size of them, the first counting the ones lost before it.
func TestFeed(t *testing.T) {
	for _, tc := range []struct {
		size, pushed int
		frames       []int64
		dropped      uint64 // on the first record delivered
	}{
		{size: 3, pushed: 2, frames: []int64{0, 1}},
		{size: 3, pushed: 3, frames: []int64{0, 1, 2}},
		{size: 3, pushed: 7, frames: []int64{4, 5, 6}, dropped: 4},
		{size: 1, pushed: 5, frames: []int64{4}, dropped: 4},
		{size: 0, pushed: 2, frames: []int64{1}, dropped: 1},
	} {
		f := newFeed(tc.size)
		for i := range tc.pushed {
			f.push(control.Record{Frame: int64(i)})
		}
		ctx, cancel := context.WithCancel(context.Background())
		out := make(chan control.Record)
		go f.run(ctx, out)
		for i, want := range tc.frames {
			select {
			case rec := <-out:
				wantDropped := uint64(0)
				if i == 0 {
					wantDropped = tc.dropped
				}
				if rec.Frame != want || rec.Dropped != wantDropped {
					t.Errorf("size %d, %d pushed: record %d is frame %d after %d dropped, want frame %d after %d",
						tc.size, tc.pushed, i, rec.Frame, rec.Dropped, want, wantDropped)
				}
			case <-time.After(time.Minute):
				t.Fatalf("size %d, %d pushed: record %d never delivered", tc.size, tc.pushed, i)
			}
		}
		select {
		case rec := <-out:
			t.Errorf("size %d, %d pushed: unexpected frame %d", tc.size, tc.pushed, rec.Frame)
		case <-time.After(20 * time.Millisecond):
		}
		cancel()
	}
}
