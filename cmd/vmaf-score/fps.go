package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/vmafsink/vmafsink/internal/framerate"
)

// frameRate is a rate in frames per second as a fraction, as FFmpeg's
// filters take it: framerate.Rate with the fields this command's code
// reads.
type frameRate struct{ num, den int64 }

func (r frameRate) String() string { return r.shared().String() }
func (r frameRate) float() float64 { return r.shared().Float() }

// parseFrameRate reads N, N/D or a decimal (23.976 is 23976/1000, as
// FFmpeg reads it; NTSC's rate is 24000/1001).
func parseFrameRate(v string) (frameRate, error) {
	r, err := framerate.Parse(v)
	return frameRate{r.Num, r.Den}, err
}

func (r frameRate) shared() framerate.Rate { return framerate.Rate{Num: r.num, Den: r.den} }

// tickOf is the output frame a timestamp falls on at rate r, as FFmpeg's
// fps filter rounds it.
func (r frameRate) tickOf(pts time.Duration) int64 { return r.shared().Tick(pts) }

// timeOf is output frame t's presentation time.
func (r frameRate) timeOf(t int64) time.Duration { return r.shared().Time(t) }

// fpsSource conforms an input to a constant rate as FFmpeg's fps filter
// does with its defaults (framerate.Conformer): it holds the latest input
// frame, and when the next one comes, gives the held one out as many
// times as the conformer says.
type fpsSource struct {
	source
	name string
	rate frameRate
	conf *framerate.Conformer

	held  *sharedFrame // the latest input frame
	going *sharedFrame // the frame going out now, left more times from tick on
	left  int
	tick  int64
	ended bool

	free chan *sharedFrame
	// out counts the frames given, dup those that repeat the one
	// before, for the run's report of what the conversion did.
	out, dup  int
	lastIndex int // the input frame given last
}

// sharedFrame is an input frame that may go out several times; its
// memory goes back to the input once every copy and the fpsSource
// itself have let go of it.
type sharedFrame struct {
	f     frame
	index int // in input order
	refs  atomic.Int32
	unref func()
}

func newFPSSource(src source, name string, r frameRate, buffers int) *fpsSource {
	s := &fpsSource{source: src, name: name, rate: r, conf: framerate.NewConformer(r.shared()), free: make(chan *sharedFrame, buffers+2)}
	for range buffers + 2 {
		sf := &sharedFrame{}
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

func (s *fpsSource) next() (frame, error) {
	for s.left == 0 {
		if s.ended {
			return frame{}, io.EOF
		}
		if err := s.read(); err != nil {
			return frame{}, err
		}
	}
	sf := s.going
	sf.refs.Add(1)
	if s.out > 0 && sf.index == s.lastIndex {
		s.dup++
	}
	s.out++
	s.lastIndex = sf.index
	t := s.tick
	s.tick++
	s.left--
	if s.left == 0 {
		s.going = nil
		sf.unref() // its last time out: only the copy given holds it now
	}
	return frame{pic: sf.f.pic, pts: s.rate.timeOf(t), dur: s.rate.timeOf(1), release: sf.unref}, nil
}

// read takes the input's next frame (or its end) and sets what goes out
// next.
func (s *fpsSource) read() error {
	f, err := s.source.next()
	if errors.Is(err, io.EOF) {
		s.ended = true
		n, first := s.conf.End()
		s.setGoing(s.held, n, first)
		s.held = nil
		return nil
	}
	if err != nil {
		return err
	}
	n, first, ok := s.conf.Frame(f.pts, f.pts != noPTS, f.dur)
	if !ok {
		f.release()
		return fmt.Errorf("%s: --fps needs timestamps, and the first frame has none (raw input has no frame rate: convert it to .y4m with its rate)", s.name)
	}
	sf := <-s.free
	sf.f = f
	sf.index = s.conf.In - 1
	sf.refs.Store(1)
	prev := s.held
	s.held = sf
	s.setGoing(prev, n, first)
	return nil
}

// setGoing makes sf go out n times from output frame first on; with n 0
// it is dropped.
func (s *fpsSource) setGoing(sf *sharedFrame, n int, first int64) {
	if sf == nil {
		return
	}
	if n == 0 {
		sf.unref()
		return
	}
	s.going, s.left, s.tick = sf, n, first
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
	if s.going != nil {
		s.going.unref()
		s.going = nil
	}
	if s.held != nil {
		s.held.unref()
		s.held = nil
	}
}

// summary says what the conversion did, for stderr and the results.
func (s *fpsSource) summary(side string) string {
	in := s.conf.In
	return fmt.Sprintf("--fps %s: %s: %d frames in, %d out (%d repeated, %d dropped)", s.rate, side, in, s.out, s.dup, max(in-(s.out-s.dup), 0))
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
