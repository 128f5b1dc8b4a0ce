package pipeline

import (
	"fmt"
	"time"

	"github.com/vmafsink/vmafsink/internal/ring"
)

// Pairing selects how reference and distorted frames are matched.
type Pairing int

const (
	// PairByTimestamp pairs frames whose running times lie within half a
	// frame duration of each other; frames without a timestamp fall back
	// to arrival order.
	PairByTimestamp Pairing = iota
	// PairByOrder pairs the n-th reference frame with the n-th distorted.
	PairByOrder
)

func (p Pairing) String() string {
	if p == PairByOrder {
		return "order"
	}
	return "timestamp"
}

// ParsePairing reads "timestamp" or "order".
func ParsePairing(s string) (Pairing, error) {
	switch s {
	case "timestamp":
		return PairByTimestamp, nil
	case "order":
		return PairByOrder, nil
	}
	return 0, fmt.Errorf("pipeline: unknown pairing %q (want timestamp or order)", s)
}

// discardReason says why a frame left the pairer without a partner.
type discardReason int

const (
	noPartner discardReason = iota // its partner is gone or will never come
	overflow                       // its side's pending queue was full
	flushed                        // the host flushed its side
)

// pairer matches frames from two streams. At most one side has frames
// waiting at any time: a frame arriving while the other side waits is
// resolved at once against that side's queue. It is not safe for
// concurrent use; the Runner serialises calls.
type pairer struct {
	mode   Pairing
	queues [2]*ring.Buffer[Frame]
	eos    [2]bool
	// epoch counts each side's flushes. A seek reaches the two sides one
	// after the other: until both have flushed, the side that has not
	// still delivers frames (and may have ended) from before the seek,
	// which must not pair with, purge or reject the other side's new ones.
	epoch [2]uint64

	// discard receives every frame that will never be paired; it must
	// release the frame.
	discard func(s Side, f *Frame, why discardReason)
	// queueing is called when a frame has joined its side's queue, with
	// the number of frames ahead of it, so the host may copy frames it
	// must not hold long.
	queueing func(f *Frame, depth int)

	// spare holds a discarded incoming frame, so that handing it to
	// discard by pointer does not move every pushed frame to the heap.
	spare Frame
}

func newPairer(mode Pairing, maxPending int) *pairer {
	return &pairer{
		mode:     mode,
		queues:   [2]*ring.Buffer[Frame]{ring.New[Frame](maxPending), ring.New[Frame](maxPending)},
		discard:  func(_ Side, f *Frame, _ discardReason) { f.release() },
		queueing: func(*Frame, int) {},
	}
}

// push offers one frame from side s. When it completes a pair, push
// returns the pair indexed by Side and true; otherwise the frame was
// queued or discarded.
func (p *pairer) push(s Side, f Frame) (pair [2]Frame, ok bool) {
	o := s.other()
	q := p.queues[o]
	switch {
	case p.epoch[s] < p.epoch[o]:
		// From before a flush the other side has had and this one has
		// yet to have: it would be flushed.
		p.reject(s, f, flushed)
		return pair, false
	case p.epoch[s] > p.epoch[o]:
		// The other side's frames and end are from before this side's
		// flush: wait for its own.
		p.drain(o, flushed)
		p.enqueue(s, f)
		return pair, false
	}
	for q.Len() > 0 {
		switch p.compare(&f, q.Front()) {
		case partnerOlder:
			// Streams advance monotonically, so a waiting frame older
			// than this one has missed its partner for good.
			old, _ := q.Pop()
			p.discard(o, &old, noPartner)
		case partnerMatches:
			pair[s] = f
			pair[o], _ = q.Pop()
			return pair, true
		case partnerNewer:
			p.reject(s, f, noPartner)
			return pair, false
		}
	}
	if p.eos[o] {
		p.reject(s, f, noPartner)
		return pair, false
	}
	p.enqueue(s, f)
	return pair, false
}

// enqueue adds f to side s's waiting frames, pushing out the oldest when
// they are at the limit.
func (p *pairer) enqueue(s Side, f Frame) {
	own := p.queues[s]
	if own.Full() {
		old, _ := own.Pop()
		p.discard(s, &old, overflow)
	}
	own.Push(f)
	p.queueing(own.Back(), own.Len()-1)
}

func (p *pairer) reject(s Side, f Frame, why discardReason) {
	p.spare = f
	p.discard(s, &p.spare, why)
	p.spare = Frame{}
}

type comparison int

const (
	partnerOlder comparison = iota
	partnerMatches
	partnerNewer
)

func (p *pairer) compare(f, partner *Frame) comparison {
	if p.mode == PairByOrder {
		return partnerMatches
	}
	a, b := f.Timing.RunningTime, partner.Timing.RunningTime
	if a == NoTime || b == NoTime {
		return partnerMatches
	}
	d := a - b
	if tol := tolerance(f.Timing.Duration, partner.Timing.Duration); (tol > 0 && d > -tol && d < tol) || d == 0 {
		return partnerMatches
	}
	if d > 0 {
		return partnerOlder
	}
	return partnerNewer
}

// tolerance is half the shorter known frame duration, or 0 (exact match)
// when neither is known.
func tolerance(a, b time.Duration) time.Duration {
	switch {
	case a <= 0 && b <= 0:
		return 0
	case a <= 0:
		return b / 2
	case b <= 0 || a < b:
		return a / 2
	}
	return b / 2
}

// partnerEnded reports whether side s's frames can no longer be paired:
// the other side ended in the same epoch and has no frame waiting.
func (p *pairer) partnerEnded(s Side) bool {
	o := s.other()
	return p.eos[o] && p.epoch[s] == p.epoch[o] && p.queues[o].Len() == 0
}

// endOfStream marks side s finished. Frames the other side has waiting
// can no longer be paired; frames s has waiting still can.
func (p *pairer) endOfStream(s Side) {
	p.eos[s] = true
	if p.epoch[s] != p.epoch[s.other()] {
		// One of the two is from before a seek the other side has had.
		return
	}
	p.drain(s.other(), noPartner)
	if p.eos[s.other()] {
		p.drain(s, noPartner)
	}
}

// flush forgets side s's waiting frames and its end of stream, and starts
// its next epoch.
func (p *pairer) flush(s Side) {
	p.drain(s, flushed)
	p.eos[s] = false
	p.epoch[s]++
}

func (p *pairer) drain(s Side, why discardReason) {
	for f, ok := p.queues[s].Pop(); ok; f, ok = p.queues[s].Pop() {
		p.discard(s, &f, why)
	}
}

// pending returns how many frames each side has waiting.
func (p *pairer) pending() [2]int {
	return [2]int{p.queues[Ref].Len(), p.queues[Dist].Len()}
}
