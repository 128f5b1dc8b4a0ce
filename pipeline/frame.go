package pipeline

import (
	"time"

	"github.com/vmafsink/vmafsink/vmaf"
)

// Side names the stream a frame belongs to.
type Side int

const (
	Ref  Side = iota // reference stream
	Dist             // distorted stream
)

func (s Side) String() string {
	if s == Ref {
		return "reference"
	}
	return "distorted"
}

func (s Side) other() Side { return 1 - s }

// NoTime marks an unknown timestamp or duration.
const NoTime time.Duration = -1

// Timing is where a frame sits on the host's timelines. Pairing by
// timestamp uses RunningTime; the rest is carried into the frame's record.
type Timing struct {
	PTS         time.Duration
	RunningTime time.Duration
	StreamTime  time.Duration
	Duration    time.Duration
}

// Untimed is the Timing of a frame without timestamps.
var Untimed = Timing{PTS: NoTime, RunningTime: NoTime, StreamTime: NoTime, Duration: NoTime}

// Releaser gives a frame's memory back to its owner.
type Releaser interface {
	Release()
}

// Frame is one picture pushed into a Runner. The Runner reads Picture's
// planes until it calls Owner.Release, exactly once, from any goroutine.
// A Releaser (rather than a func) lets hosts recycle their per-buffer
// state without allocating a closure for every frame.
type Frame struct {
	Picture *vmaf.Picture
	Timing  Timing
	Owner   Releaser // nil when the memory outlives the Runner
	// HoldLimit, when positive, says the picture's memory comes from a
	// bounded pool upstream, of which at most this many buffers may wait
	// in the Runner (and at most Config.MaxHeld); a frame that would wait
	// beyond that is copied and its memory given back at once. Zero: the
	// frame may wait as long as pairing needs. CopyAtOnce: the Runner
	// copies the picture into memory it recycles and gives the host's
	// back before Push returns, as for fresh heap buffers, which held
	// while they wait and are scored fragment the host's heap.
	HoldLimit int
}

// CopyAtOnce is the HoldLimit of a frame whose memory the host needs back
// at once.
const CopyAtOnce = -1

func (f *Frame) release() {
	if f.Owner != nil {
		f.Owner.Release()
	}
	*f = Frame{}
}
