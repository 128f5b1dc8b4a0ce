package element

import (
	"sync"
	"time"
)

// playGate holds the distorted stream while the element is not PLAYING.
// The inner sink holds the reference stream in PAUSED (its preroll); were
// the distorted stream to flow on, its frames would wait for partners
// that cannot come and, past max-pending, be released unpaired, so a
// pipeline left PAUSED would lose frames. Held here, both streams resume
// together, as any sink's single stream does. The gate closes only once
// the reference has prerolled: a tee without queues that feeds the
// distorted pad first must still reach the reference pad in PAUSED. While
// closed it still lets the distorted stream follow the reference frames
// delivered before the one the inner sink holds, one frame for each, so
// that a step in PAUSED, which moves the reference on, moves the
// distorted stream with it. The held frame's partner passes only while a
// step waits for its last frame's score (which needs the next pair's
// motion): a flushing seek discards the prerolled frame unplayed, as a
// sink's, and its pair is then never formed. A distorted frame that came
// before the reference's first, while the gate was still open, does pair
// with the prerolled frame: the Runner keeps that pair unscored while
// unplayed says so, and a flush forgets it.
type playGate struct {
	mu        sync.Mutex
	cond      sync.Cond
	playing   bool
	prerolled bool // a reference frame has gone to the inner sink
	flushing  bool
	closed    bool
	expired   bool // the current wait reached gateLimit
	// refs and dists count the frames each side has delivered since it
	// last flushed: a distorted frame passes while dists+1 < refs, or
	// dists < refs while stepping (a STEP_DONE is held).
	refs, dists uint64
	stepping    bool
	wait        int // counts waits, so a late timer cannot end a later one
}

func (g *playGate) init() { g.cond.L = &g.mu }

// gateLimit bounds a wait at the gate. A pipeline that never reaches
// PLAYING while the distorted stream waits (one seen: two sources whose
// formats differ, under load, stayed PREROLLING) must not hang its host:
// after the limit the frame goes on, and the pairing's own waits apply.
const gateLimit = 5 * time.Second

// pass waits until the element is PLAYING or the distorted stream is
// behind the reference, at most gateLimit, and reports
// true, or false when the pad flushes or the run stops first.
func (g *playGate) pass() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held() {
		g.wait++
		wait := g.wait
		timer := time.AfterFunc(gateLimit, func() {
			g.set(func() { g.expired = g.wait == wait })
		})
		for g.held() && !g.expired {
			g.cond.Wait()
		}
		timer.Stop()
		g.wait++ // a timer still firing finds another wait
		g.expired = false
	}
	if g.flushing || g.closed {
		return false
	}
	g.dists++
	return true
}

// held says whether a distorted frame must wait now. Called with mu held.
func (g *playGate) held() bool {
	if !g.prerolled || g.playing || g.flushing || g.closed {
		return false
	}
	if g.stepping {
		return g.dists >= g.refs
	}
	return g.dists+1 >= g.refs
}

func (g *playGate) set(f func()) {
	g.mu.Lock()
	f()
	g.mu.Unlock()
	g.cond.Broadcast()
}

func (g *playGate) setPlaying(p bool) { g.set(func() { g.playing = p }) }
func (g *playGate) setFlushing(f bool) {
	g.set(func() {
		g.flushing = f
		if !f {
			g.dists = 0
		}
	})
}
func (g *playGate) close()             { g.set(func() { g.closed = true }) }
func (g *playGate) setStepping(s bool) { g.set(func() { g.stepping = s }) }

// refDelivered notes a reference frame on its way to the inner sink;
// refFlushed forgets it when the reference stream restarts.
func (g *playGate) refDelivered() {
	g.set(func() {
		g.prerolled = true
		g.refs++
	})
}

// refFlushing forgets the counted reference frames when the reference
// starts flushing; the gate stays closed (a held distorted frame is not
// let through to pair with the frame being flushed).
func (g *playGate) refFlushing() { g.set(func() { g.refs = 0 }) }

func (g *playGate) refFlushed() { g.set(func() { g.prerolled, g.refs = false, 0 }) }

// unplayed reports whether the inner sink holds the reference's newest
// frame unplayed, as its preroll: the element or its inner sink
// (sinkPlaying) not PLAYING, and no step under way (a step plays the
// frames it covers, and the score of its last one needs the next pair).
// The inner sink counts apart because a flushing seek in PLAYING makes
// it lose its state and preroll again while the element stays PLAYING.
// The Runner keeps a pair completed with that frame unscored, so that a
// flushing seek discards it as a sink discards its preroll.
func (g *playGate) unplayed(sinkPlaying bool) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return !(g.playing && sinkPlaying) && !g.stepping
}
