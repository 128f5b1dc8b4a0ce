package element

import "sync"

// eosGate posts the element's EOS message only while the element is
// PLAYING, as GstBaseSink does: a bin forwards its sinks' EOS only when
// it is PLAYING, and one that reaches a bin in the middle of its
// PAUSED→PLAYING change is never looked at again, so the application
// would wait for EOS forever. The element scores during PAUSED, so short
// streams often end before the pipeline is PLAYING: their EOS waits here
// and is posted as the element enters PLAYING, before its bin checks, and
// again on every later return to PLAYING until a flush.
type eosGate struct {
	mu      sync.Mutex
	playing bool
	ended   bool
	post    func()
}

// reached is called once the run has ended.
func (g *eosGate) reached() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ended = true
	if g.playing {
		g.post()
	}
}

// setPlaying follows the element's PAUSED↔PLAYING changes.
func (g *eosGate) setPlaying(playing bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.playing = playing
	if playing && g.ended {
		g.post()
	}
}

// flush forgets the end: a flushing seek restarts the streams.
func (g *eosGate) flush() {
	g.mu.Lock()
	g.ended = false
	g.mu.Unlock()
}
