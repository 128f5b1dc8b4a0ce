package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// frameRate is a rate in frames per second as a fraction, as FFmpeg's
// filters take it.
type frameRate struct{ num, den int64 }

func (r frameRate) String() string {
	if r.den == 1 {
		return strconv.FormatInt(r.num, 10)
	}
	return fmt.Sprintf("%d/%d", r.num, r.den)
}

func (r frameRate) float() float64 { return float64(r.num) / float64(r.den) }

// parseFrameRate reads N, N/D or a decimal (23.976 is 23976/1000, as
// FFmpeg reads it; NTSC's rate is 24000/1001).
func parseFrameRate(v string) (frameRate, error) {
	var rat big.Rat
	if _, ok := rat.SetString(strings.TrimSpace(v)); !ok || rat.Sign() <= 0 {
		return frameRate{}, fmt.Errorf("not a positive rate")
	}
	if !rat.Num().IsInt64() || !rat.Denom().IsInt64() || rat.Num().Int64() > 1<<30 || rat.Denom().Int64() > 1<<30 {
		return frameRate{}, fmt.Errorf("out of range")
	}
	return frameRate{rat.Num().Int64(), rat.Denom().Int64()}, nil
}

// tickOf is the output frame a timestamp falls on at rate r, rounded to
// the nearest with halves away from zero, as FFmpeg's fps filter rounds
// by default. Timestamps reach us in nanoseconds, rounded from the
// container's time base; within a millionth of a frame of halfway counts
// as halfway, which only an exact half can be at real rates.
func (r frameRate) tickOf(pts time.Duration) int64 {
	x := float64(pts) * float64(r.num) / (float64(r.den) * 1e9)
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

// timeOf is output frame t's presentation time.
func (r frameRate) timeOf(t int64) time.Duration {
	return time.Duration(math.Round(float64(t) * float64(r.den) * 1e9 / float64(r.num)))
}

// fpsSource conforms an input to a constant rate as FFmpeg's fps filter
// does with its defaults: each input frame's timestamp is rounded to the
// output rate, the output starts at the first frame's, output frame t
// shows the latest input frame that falls on or before t (so frames are
// repeated when the input is slower and dropped when it is faster), and
// the output ends at the input's end, its last frame's time plus its
// duration, rounded the same way.
type fpsSource struct {
	source
	name string
	rate frameRate

	cur, ahead   *sharedFrame
	curT, aheadT int64
	nextT        int64 // the next output frame
	endT         int64 // valid once ended
	ended        bool
	started      bool
	lastEnd      time.Duration // the latest input frame's end, for frames without a timestamp

	free chan *sharedFrame
	// in and out count input frames read and output frames given, for
	// the run's report of what the conversion did.
	in, out   int
	dup       int // output frames that repeat the one before
	lastIndex int // the input frame that went out last
}

// sharedFrame is an input frame that may go out several times; its
// memory goes back to the input once every copy and the fpsSource
// itself have let go of it.
type sharedFrame struct {
	f     frame
	index int // in input order
	refs  atomic.Int32
	owner *fpsSource
	unref func()
}

func newFPSSource(src source, name string, r frameRate, buffers int) *fpsSource {
	s := &fpsSource{source: src, name: name, rate: r, free: make(chan *sharedFrame, buffers+2)}
	for range buffers + 2 {
		sf := &sharedFrame{owner: s}
		sf.unref = func() {
			if sf.refs.Add(-1) == 0 {
				rel := sf.f.release
				sf.f = frame{}
				rel()
				s.free <- sf
			}
		}
		s.free <- sf
	}
	return s
}

// read takes the input's next frame, with its rounded output time.
func (s *fpsSource) read() (*sharedFrame, int64, error) {
	f, err := s.source.next()
	if err != nil {
		return nil, 0, err
	}
	if f.pts == noPTS {
		if s.in == 0 {
			f.release()
			return nil, 0, fmt.Errorf("%s: --fps needs timestamps, and the first frame has none (raw input has no frame rate: convert it to .y4m with its rate)", s.name)
		}
		f.pts = s.lastEnd
	}
	s.in++
	s.lastEnd = f.pts + f.dur
	sf := <-s.free
	sf.f = f
	sf.index = s.in - 1
	sf.refs.Store(1)
	return sf, s.rate.tickOf(f.pts), nil
}

func (s *fpsSource) next() (frame, error) {
	if !s.started {
		s.started = true
		sf, t, err := s.read()
		if err != nil {
			return frame{}, err
		}
		s.cur, s.curT, s.nextT = sf, t, t
		if err := s.readAhead(); err != nil {
			return frame{}, err
		}
	}
	if s.cur == nil {
		return frame{}, io.EOF
	}
	// Move on while the frame after the current one already covers the
	// next output time.
	for s.ahead != nil && s.aheadT <= s.nextT {
		s.cur.unref()
		s.cur, s.curT = s.ahead, s.aheadT
		s.ahead = nil
		if err := s.readAhead(); err != nil {
			return frame{}, err
		}
	}
	if s.ahead == nil && s.ended && s.endT <= s.nextT {
		s.cur.unref()
		s.cur = nil
		return frame{}, io.EOF
	}
	if s.out > 0 && s.cur.index == s.lastIndex {
		s.dup++
	}
	s.lastIndex = s.cur.index
	s.cur.refs.Add(1)
	t := s.nextT
	s.nextT++
	s.out++
	return frame{pic: s.cur.f.pic, pts: s.rate.timeOf(t), dur: s.rate.timeOf(1), release: s.cur.unref}, nil
}

// readAhead reads the frame after the current one, or notes the input's
// end.
func (s *fpsSource) readAhead() error {
	if s.ended {
		return nil
	}
	sf, t, err := s.read()
	if errors.Is(err, io.EOF) {
		s.ended = true
		s.endT = s.rate.tickOf(s.lastEnd)
		return nil
	}
	if err != nil {
		return err
	}
	s.ahead, s.aheadT = sf, t
	return nil
}

func (s *fpsSource) total() int {
	n := s.source.total()
	if n == 0 {
		return 0
	}
	if in, ok := s.source.(ratedSource); ok && in.frameRate() > 0 {
		return int(math.Round(float64(n) * s.rate.float() / in.frameRate()))
	}
	return 0
}

func (s *fpsSource) frameRate() float64 { return s.rate.float() }

// close gives back the frames it holds; the input itself is closed by
// whoever opened it.
func (s *fpsSource) close() {
	if s.ahead != nil {
		s.ahead.unref()
		s.ahead = nil
	}
	if s.cur != nil {
		s.cur.unref()
		s.cur = nil
	}
}

// summary says what the conversion did, for stderr and the results.
func (s *fpsSource) summary(side string) string {
	dropped := s.in - (s.out - s.dup)
	return fmt.Sprintf("--fps %s: %s: %d frames in, %d out (%d repeated, %d dropped)", s.rate, side, s.in, s.out, s.dup, max(dropped, 0))
}

// ratedSource is an input that knows its frame rate (0 when it does not).
type ratedSource interface {
	frameRate() float64
}

func rateOf(src source) float64 {
	if r, ok := src.(ratedSource); ok {
		return r.frameRate()
	}
	return 0
}

// rateWarning says why inputs of different rates pair badly, or "".
func rateWarning(ref, dist float64, align string) string {
	if ref <= 0 || dist <= 0 || math.Abs(ref-dist) <= 1e-3*max(ref, dist) {
		return ""
	}
	how := "frames are paired in order, so the two drift apart in time"
	if align == "pts" {
		how = "--align pts pairs frames shown at the same time and drops the faster input's frames that have no partner, which FFmpeg's fps filter would repeat or drop"
	}
	return fmt.Sprintf("frame rates differ (reference %s fps, distorted %s fps): %s; conform both with --fps %s, as FFmpeg's fps filter does",
		formatRate(ref), formatRate(dist), how, formatRate(ref))
}

// formatRate writes a rate as --fps takes it: NTSC's 1000/1001 rates
// as fractions, others in decimals.
func formatRate(r float64) string {
	if n := math.Round(r * 1.001); math.Abs(r*1.001-n) < 1e-3 && math.Abs(r-n) > 1e-3 {
		return fmt.Sprintf("%d/1001", int64(n)*1000)
	}
	return strconv.FormatFloat(math.Round(r*1000)/1000, 'f', -1, 64)
}

// conformRates wraps both inputs in an fpsSource when --fps asks for one
// rate; closing a wrapper gives back its frames, not the input.
func (s *settings) conformRates(ref, dist source, buffers int) (source, source) {
	if s.fps.num == 0 {
		return ref, dist
	}
	return newFPSSource(ref, s.ref, s.fps, buffers), newFPSSource(dist, s.dist, s.fps, buffers)
}

func (j *job) noteConformed() {
	for _, src := range []source{j.ref, j.dist} {
		if f, ok := src.(*fpsSource); ok {
			j.conformed = append(j.conformed, f)
		}
	}
}

// reportConformed says on stderr what --fps did to each input.
func (j *job) reportConformed() {
	if j.s.quiet {
		return
	}
	for i, f := range j.conformed {
		fmt.Fprintf(j.stderr, "vmaf-score: %s\n", f.summary(sideWord(i)))
	}
}
