package main

import (
	"sync"
	"sync/atomic"
)

// teeSource reads one input once for several consumers (branches), each
// of which sees every frame in order. A frame's memory goes back to the
// input once every open branch has taken and released it; a branch that
// closes stops holding frames back. The input is read by whichever
// branch first needs a frame not read yet, outside the lock that guards
// the queue, so a branch behind the others never waits on the reader.
type teeSource struct {
	src    source
	readMu sync.Mutex // one branch reads the input at a time

	mu     sync.Mutex
	queue  []*teeFrame // frames some open branch has not released
	base   int         // index of queue[0]
	err    error       // what ended the input, after its last frame
	open   int
	closed []bool
}

type teeFrame struct {
	f       frame
	refs    atomic.Int32
	done    bool // guarded by teeSource.mu
	release func()
}

func newTee(src source, branches int) *teeSource {
	return &teeSource{src: src, open: branches, closed: make([]bool, branches)}
}

// branch returns the i-th consumer's view of the input.
func (t *teeSource) branch(i int) *teeBranch { return &teeBranch{t: t, id: i} }

type teeBranch struct {
	t   *teeSource
	id  int
	pos int // the next frame's index
}

func (b *teeBranch) next() (frame, error) {
	t := b.t
	for {
		if f, ok, err := b.queued(); ok || err != nil {
			return f, err
		}
		t.readMu.Lock()
		if f, ok, err := b.queued(); ok || err != nil {
			t.readMu.Unlock()
			return f, err
		}
		f, err := t.src.next()
		t.mu.Lock()
		if err != nil {
			t.err = err
		} else {
			tf := &teeFrame{f: f}
			tf.refs.Store(int32(t.open))
			tf.release = func() { t.unref(tf) }
			t.queue = append(t.queue, tf)
		}
		t.mu.Unlock()
		t.readMu.Unlock()
	}
}

// queued takes the branch's next frame if it has been read, or the
// input's end if it has come.
func (b *teeBranch) queued() (frame, bool, error) {
	t := b.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if i := b.pos - t.base; i < len(t.queue) {
		tf := t.queue[i]
		b.pos++
		f := tf.f
		f.release = tf.release
		return f, true, nil
	}
	if t.err != nil {
		return frame{}, false, t.err
	}
	return frame{}, false, nil
}

func (t *teeSource) unref(tf *teeFrame) {
	if tf.refs.Add(-1) != 0 {
		return
	}
	tf.f.release()
	t.mu.Lock()
	tf.done = true
	for len(t.queue) > 0 && t.queue[0].done {
		t.queue[0] = nil
		t.queue = t.queue[1:]
		t.base++
	}
	t.mu.Unlock()
}

func (b *teeBranch) format() picFormat { return b.t.src.format() }
func (b *teeBranch) total() int        { return b.t.src.total() }
func (b *teeBranch) frameRate() float64 {
	return rateOf(b.t.src)
}
func (b *teeBranch) dynamicRange() string { return rangeOf(b.t.src) }

// close gives up the frames the branch has not taken; the input itself
// is closed by whoever opened it.
func (b *teeBranch) close() {
	t := b.t
	t.mu.Lock()
	if t.closed[b.id] {
		t.mu.Unlock()
		return
	}
	t.closed[b.id] = true
	t.open--
	var left []*teeFrame
	if i := b.pos - t.base; i >= 0 && i < len(t.queue) {
		left = append(left, t.queue[i:]...)
	}
	b.pos = t.base + len(t.queue)
	t.mu.Unlock()
	for _, tf := range left {
		t.unref(tf)
	}
}
