package ffsource

import (
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/asticode/go-astiav"
)

// errStopped ends the decoding goroutine when Close asks it to.
var errStopped = errors.New("ffsource: closed")

// noPTSValue is FFmpeg's AV_NOPTS_VALUE.
const noPTSValue = math.MinInt64

// run decodes until the end of the input, an error, or Close, and then
// delivers the reason (io.EOF at a clean end) after the frames.
func (s *Source) run() {
	defer close(s.done)
	err := s.decode()
	if err == errStopped {
		return
	}
	select {
	case s.out <- item{err: err}:
	case <-s.stop:
	}
}

func (s *Source) decode() error {
	if s.pending {
		s.pending = false
		err := s.send(s.pkt)
		s.pkt.Unref()
		if err != nil {
			return err
		}
	}
	for {
		if err := s.fc.ReadFrame(s.pkt); err != nil {
			if errors.Is(err, astiav.ErrEof) {
				break
			}
			if s.stopping() {
				return errStopped
			}
			return fmt.Errorf("%s: reading after frame %d: %w", s.name, s.decoded, err)
		}
		if s.pkt.StreamIndex() != s.stream.Index() {
			s.pkt.Unref()
			continue
		}
		err := s.send(s.pkt)
		s.pkt.Unref()
		if err != nil {
			return err
		}
	}
	// End of input: drain the frames the decoder still holds.
	if err := s.send(nil); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return io.EOF
}

// send gives the decoder one packet (nil at the end of the input) and
// delivers the frames it produces. It returns io.EOF once a drained
// decoder has no more frames.
func (s *Source) send(pkt *astiav.Packet) error {
	for {
		err := s.cc.SendPacket(pkt)
		if err != nil && !errors.Is(err, astiav.ErrEagain) {
			if errors.Is(err, astiav.ErrEof) {
				return io.EOF
			}
			return fmt.Errorf("%s: decoding frame %d: %w", s.name, s.decoded, err)
		}
		if rerr := s.receive(); rerr != nil {
			return rerr
		}
		if err == nil {
			return nil
		}
		// The decoder refused the packet until its output was read,
		// which receive has now done: offer the packet again.
	}
}

// receive delivers every frame the decoder has ready.
func (s *Source) receive() error {
	if s.graph != nil {
		return s.receiveFiltered()
	}
	for {
		sl, err := s.freeSlot()
		if err != nil {
			return err
		}
		err = s.cc.ReceiveFrame(sl.in)
		if err != nil {
			s.spare = sl
			switch {
			case errors.Is(err, astiav.ErrEagain):
				return nil
			case errors.Is(err, astiav.ErrEof):
				return io.EOF
			}
			return fmt.Errorf("%s: decoding frame %d: %w", s.name, s.decoded, err)
		}
		s.produced.Add(1)
		sl.pts, sl.dur = s.timing(sl.in)
		if err := s.deliver(sl); err != nil {
			return err
		}
	}
}

// freeSlot is a slot to decode into: the one left unfilled last time,
// or a free one once the consumer gives one back.
func (s *Source) freeSlot() (*slot, error) {
	if sl := s.spare; sl != nil {
		s.spare = nil
		return sl, nil
	}
	select {
	case sl := <-s.free:
		return sl, nil
	case <-s.stop:
		return nil, errStopped
	}
}

// deliver converts the frame in sl to the output format and hands it to
// Next.
func (s *Source) deliver(sl *slot) error {
	if err := s.conv.fill(sl); err != nil {
		sl.in.Unref()
		s.spare = sl
		return fmt.Errorf("%s: frame %d: %w", s.name, s.decoded, err)
	}
	sl.index = s.decoded
	s.decoded++
	select {
	case s.out <- item{slot: sl}:
		return nil
	case <-s.stop:
		s.put(sl)
		return errStopped
	}
}

// timing reads the frame's presentation time and duration.
func (s *Source) timing(f *astiav.Frame) (pts, dur time.Duration) {
	tb := s.stream.TimeBase()
	ns := astiav.NewRational(1, int(time.Second))
	pts = NoPTS
	if ts := frameTimestamp(f); ts != noPTSValue {
		pts = time.Duration(astiav.RescaleQ(ts, tb, ns))
	}
	if d := frameDuration(f); d > 0 {
		dur = time.Duration(astiav.RescaleQ(d, tb, ns))
	} else if s.info.FrameRate > 0 {
		dur = time.Duration(float64(time.Second) / s.info.FrameRate)
	}
	return pts, dur
}

func (s *Source) stopping() bool {
	select {
	case <-s.stop:
		return true
	default:
		return false
	}
}
