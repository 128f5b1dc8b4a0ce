// Package framerate conforms a stream of timed frames to one constant
// rate as FFmpeg's fps filter does with its defaults, for vmaf-score's
// --fps and the element's fps property alike.
//
// Each frame's timestamp is rounded to the output rate (to the nearest
// output frame, halves away from zero); the output starts at the first
// frame's; output frame t shows the latest input frame that falls on or
// before t, so frames are repeated where the input is slower and dropped
// where it is faster; the output ends at the input's end (its last
// frame's time plus duration), rounded the same way.
package framerate

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// Rate is a rate in frames per second as a fraction.
type Rate struct{ Num, Den int64 }

func (r Rate) String() string {
	if r.Den == 1 {
		return strconv.FormatInt(r.Num, 10)
	}
	return fmt.Sprintf("%d/%d", r.Num, r.Den)
}

// Float is the rate in frames per second.
func (r Rate) Float() float64 { return float64(r.Num) / float64(r.Den) }

// Parse reads N, N/D or a decimal (29.97 is 2997/100, as FFmpeg reads
// it; NTSC's rate is 30000/1001).
func Parse(v string) (Rate, error) {
	var rat big.Rat
	if _, ok := rat.SetString(strings.TrimSpace(v)); !ok || rat.Sign() <= 0 {
		return Rate{}, fmt.Errorf("not a positive rate")
	}
	if !rat.Num().IsInt64() || !rat.Denom().IsInt64() || rat.Num().Int64() > 1<<30 || rat.Denom().Int64() > 1<<30 {
		return Rate{}, fmt.Errorf("out of range")
	}
	return Rate{rat.Num().Int64(), rat.Denom().Int64()}, nil
}

// Tick is the output frame a timestamp falls on, rounded to the nearest
// with halves away from zero. Timestamps come in nanoseconds, rounded
// from a container's time base; within a millionth of a frame of
// halfway counts as halfway, which only an exact half can be at real
// rates.
func (r Rate) Tick(pts time.Duration) int64 {
	x := float64(pts) * float64(r.Num) / (float64(r.Den) * 1e9)
	f := math.Floor(x)
	frac := x - f
	const eps = 1e-6
	switch {
	case frac > 0.5+eps:
		return int64(f) + 1
	case frac < 0.5-eps:
		return int64(f)
	case x > 0:
		return int64(f) + 1
	}
	return int64(f)
}

// Time is output frame t's presentation time.
func (r Rate) Time(t int64) time.Duration {
	return time.Duration(math.Round(float64(t) * float64(r.Den) * 1e9 / float64(r.Num)))
}

// Conformer follows one stream's frames as they arrive and says how many
// times each goes out. The caller holds the latest frame: when the next
// one arrives, Frame says how often the held one is output first; at the
// end, End says how often the last one is.
type Conformer struct {
	rate    Rate
	started bool
	next    int64         // the next output frame
	lastEnd time.Duration // the latest frame's end, for frames without a timestamp
	// In and Out count the frames given and output, Repeated the
	// outputs that show the frame before them again.
	In, Out, Repeated int
}

// NewConformer conforms to rate r.
func NewConformer(r Rate) *Conformer { return &Conformer{rate: r} }

// Rate is the output rate.
func (c *Conformer) Rate() Rate { return c.rate }

// Frame takes the next frame's timestamp (hasPTS false when it has
// none: it then follows the one before) and duration, and says how many
// times the frame held until now goes out before this one replaces it,
// from output frame first on (the output frame's time is Rate().Time).
// The first frame's answer is 0. ok is false for a first frame without a
// timestamp, which gives the output nowhere to start.
func (c *Conformer) Frame(pts time.Duration, hasPTS bool, dur time.Duration) (n int, first int64, ok bool) {
	if !hasPTS {
		if !c.started {
			return 0, 0, false
		}
		pts = c.lastEnd
	}
	c.In++
	c.lastEnd = pts + dur
	t := c.rate.Tick(pts)
	if !c.started {
		c.started, c.next = true, t
		return 0, t, true
	}
	first = c.next
	if t > c.next {
		n = int(t - c.next)
		c.next = t
	}
	c.count(n)
	return n, first, true
}

// End says how many times the last frame goes out when the stream ends,
// from output frame first on.
func (c *Conformer) End() (n int, first int64) {
	if !c.started {
		return 0, 0
	}
	first = c.next
	if end := c.rate.Tick(c.lastEnd); end > c.next {
		n = int(end - c.next)
		c.next = end
	}
	c.count(n)
	return n, first
}

func (c *Conformer) count(n int) {
	c.Out += n
	if n > 0 {
		c.Repeated += n - 1
	}
}

// Dropped is how many frames given did not go out at all.
func (c *Conformer) Dropped() int { return max(c.In-(c.Out-c.Repeated), 0) }
