package element

import (
	"errors"
	"fmt"
	"time"

	"github.com/vmafsink/vmafsink/internal/framerate"
	"github.com/vmafsink/vmafsink/pipeline"
)

// The fps property conforms both pads' streams to one rate before they
// are paired, as FFmpeg's fps filter does and vmaf-score --fps does
// (framerate.Conformer): each pad holds its latest frame, and when the
// next one comes gives the held one to the Runner as many times as the
// conformer says, at the output rate's timestamps. Frames given more than
// once share their mapping (mappedFrame.shares).

// padRate is one pad's conforming state, touched only from that pad's
// streaming thread (its buffers and serialized events) and, once the
// threads have stopped, by the run's teardown.
type padRate struct {
	conf *framerate.Conformer
	held *mappedFrame
	f    pipeline.Frame // the held frame as it came, for its timing and hold limit
}

func (st *runState) startRates() {
	if st.settings.fps.Num == 0 {
		return
	}
	for i := range st.rates {
		st.rates[i] = &padRate{conf: framerate.NewConformer(st.settings.fps)}
	}
}

// pushFrame hands a pad's frame to the Runner: at once, or through the
// pad's conformer when fps is set.
func (st *runState) pushFrame(s pipeline.Side, f pipeline.Frame, m *mappedFrame) error {
	pr := st.rates[s]
	if pr == nil {
		return st.runner.Push(s, f)
	}
	at := f.Timing.RunningTime
	if at == pipeline.NoTime {
		at = f.Timing.PTS
	}
	dur := f.Timing.Duration
	if dur == pipeline.NoTime {
		dur = 0
	}
	n, first, ok := pr.conf.Frame(at, at != pipeline.NoTime, dur)
	if !ok {
		m.Release()
		return errNoTimestamps
	}
	prev, prevFrame := pr.held, pr.f
	pr.held, pr.f = m, f
	if prev == nil {
		return nil
	}
	return st.pushHeld(s, prev, prevFrame, n, first)
}

// errNoTimestamps stops a pad whose first buffer has no timestamp when
// fps is set: the output rate has nowhere to start.
var errNoTimestamps = errors.New("fps conforms frames by their timestamps, and the first buffer has none")

// pushHeld gives frame m to the Runner n times, as output frames first,
// first+1, ..., and then lets go of the pad's own share of it.
func (st *runState) pushHeld(s pipeline.Side, m *mappedFrame, f pipeline.Frame, n int, first int64) error {
	defer m.Release()
	rate := st.settings.fps
	for k := range n {
		t := rate.Time(first + int64(k))
		out := f
		out.Timing = conformedTiming(f.Timing, t, rate.Time(first+int64(k)+1)-t)
		m.shares.Add(1)
		if err := st.runner.Push(s, out); err != nil {
			return err
		}
	}
	return nil
}

// conformedTiming places an output frame at running time t, moving its
// PTS and stream time with it.
func conformedTiming(in pipeline.Timing, t, dur time.Duration) pipeline.Timing {
	out := pipeline.Timing{PTS: t, RunningTime: t, StreamTime: t, Duration: dur}
	if in.RunningTime != pipeline.NoTime {
		shift := t - in.RunningTime
		if in.PTS != pipeline.NoTime {
			out.PTS = in.PTS + shift
		}
		if in.StreamTime != pipeline.NoTime {
			out.StreamTime = in.StreamTime + shift
		}
	}
	return out
}

// endRate gives the held frame out for the rest of the stream when a pad
// reaches EOS.
func (st *runState) endRate(s pipeline.Side) {
	pr := st.rates[s]
	if pr == nil || pr.held == nil {
		return
	}
	n, first := pr.conf.End()
	m, f := pr.held, pr.f
	pr.held = nil
	if err := st.pushHeld(s, m, f, n, first); err != nil && !errors.Is(err, pipeline.ErrFlushing) && !errors.Is(err, pipeline.ErrFinished) && !errors.Is(err, pipeline.ErrPartnerEnded) {
		st.e.fail(errFailed, "VMAF scoring failed", err.Error())
	}
	st.e.logPad(lvlInfo, s, "fps %s: %d frames in, %d out (%d repeated, %d dropped)",
		st.settings.fps, pr.conf.In, pr.conf.Out, pr.conf.Repeated, pr.conf.Dropped())
}

// resetRate drops what a pad's conformer holds (a flush, or the run's
// end) and starts it again.
func (st *runState) resetRate(s pipeline.Side) {
	pr := st.rates[s]
	if pr == nil {
		return
	}
	if pr.held != nil {
		pr.held.Release()
		pr.held = nil
	}
	pr.conf = framerate.NewConformer(st.settings.fps)
}

// checkRateSettings refuses an fps the run cannot use.
func (s *settings) checkRateSettings() error {
	if s.fps.Num != 0 && s.noReference {
		return fmt.Errorf("fps conforms two streams to one rate; no-reference=true scores one as it comes (conform it upstream with videorate)")
	}
	return nil
}
