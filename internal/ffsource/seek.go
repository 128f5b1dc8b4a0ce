package ffsource

import (
	"errors"
	"fmt"
	"slices"

	"github.com/asticode/go-astiav"
)

// NotSought is SkipFrames' answer when it left the input at its start
// for the caller to read the frames: Reason says why seeking was not
// possible, or is empty when the nearest keyframe is the first frame.
type NotSought struct{ Reason string }

func (e *NotSought) Error() string {
	if e.Reason == "" {
		return "the nearest keyframe is the first frame"
	}
	return "cannot seek: " + e.Reason
}

// packetTimes are the video stream's packets in decoding order.
type packetTimes struct {
	pts, dts []int64
	key      []bool
}

// FramesDecoded is how many frames the decoder has produced so far,
// those SkipFrames decoded and dropped included.
func (s *Source) FramesDecoded() int { return int(s.produced.Load()) }

// SkipFrames moves past the first n frames before decoding starts: it
// seeks to the nearest keyframe before the n-th frame in presentation
// order and decodes and drops frames up to it, so that Next returns the
// frame that reading and dropping n frames would. The frames are mapped
// to timestamps by a scan of the packets (one frame a packet, as
// CountFrames counts them); when the mapping is ambiguous (a packet
// without a timestamp, two with the same one, packets to discard) or the
// seek lands where the frames do not follow it, the input is put back at
// its start and SkipFrames returns a *NotSought.
func (s *Source) SkipFrames(n int) error {
	if s.started {
		return errors.New("ffsource: SkipFrames after decoding started")
	}
	if n <= 0 {
		return nil
	}
	if s.graph != nil {
		return &NotSought{"its filters may change the frame count"}
	}
	pt, reason, err := scanPacketTimes(s.url, s.opts)
	if err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	if reason != "" {
		return &NotSought{reason}
	}
	if n >= len(pt.pts) {
		return &NotSought{fmt.Sprintf("the input has %d frames, fewer than %d", len(pt.pts), n+1)}
	}
	order := slices.Clone(pt.pts)
	slices.Sort(order)
	before := order[n-1] // the last frame to drop
	ki := -1
	for i, k := range pt.key {
		if k && pt.pts[i] <= before {
			ki = i
		}
	}
	if ki <= 0 {
		return &NotSought{}
	}
	if reason := s.seekKey(pt, ki, before); reason != "" {
		return s.rewind(reason, pt)
	}
	if reason := s.dropTo(order, n); reason != "" {
		return s.rewind(reason, pt)
	}
	s.decoded = n
	return nil
}

// seekKey seeks to keyframe packet ki, or one before it, and leaves the
// stream's first packet there in s.pkt; it returns why it could not, or
// "". Demuxers index by presentation time (Matroska) or decoding time
// (MP4), so both are tried, presentation time first.
func (s *Source) seekKey(pt packetTimes, ki int, before int64) string {
	reason := "the container has no index to seek by"
	for i, ts := range []int64{pt.pts[ki], pt.dts[ki]} {
		if ts == noPTSValue || i == 1 && ts == pt.pts[ki] {
			continue
		}
		if err := s.fc.SeekFrame(s.stream.Index(), ts, astiav.NewSeekFlags(astiav.SeekFlagBackward)); err != nil {
			reason = fmt.Sprintf("the container refused to seek (%v)", err)
			continue
		}
		for {
			if err := s.fc.ReadFrame(s.pkt); err != nil {
				return fmt.Sprintf("reading after the seek: %v", err)
			}
			if s.pkt.StreamIndex() == s.stream.Index() {
				break
			}
			s.pkt.Unref()
		}
		p := s.pkt.Pts()
		if s.pkt.Flags().Has(astiav.PacketFlagKey) && p != noPTSValue && p <= before {
			return ""
		}
		s.pkt.Unref()
		reason = "the seek did not land on a keyframe before the wanted frame"
	}
	return reason
}

// rewind puts the input back at its first packet with a new decoder,
// after a seek that could not be used, and reports why as a *NotSought.
func (s *Source) rewind(reason string, pt packetTimes) error {
	s.pending = false
	s.pkt.Unref()
	s.cc.Free()
	s.cc = nil
	if _, err := s.newDecoder(s.opts); err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	ts := pt.dts[0]
	if ts == noPTSValue {
		ts = pt.pts[0]
	}
	back := fmt.Errorf("%s: %s, and cannot return to the first frame", s.name, reason)
	if err := s.fc.SeekFrame(s.stream.Index(), ts, astiav.NewSeekFlags(astiav.SeekFlagBackward)); err != nil {
		return back
	}
	// The first packet of the stream must be the first one scanned; the
	// packets of other streams before it do not matter.
	for {
		if err := s.fc.ReadFrame(s.pkt); err != nil {
			return back
		}
		if s.pkt.StreamIndex() != s.stream.Index() {
			s.pkt.Unref()
			continue
		}
		if s.pkt.Pts() != pt.pts[0] || s.pkt.Dts() != pt.dts[0] {
			s.pkt.Unref()
			return back
		}
		s.pending = true // decode starts with it
		s.produced.Store(0)
		return &NotSought{reason}
	}
}

// dropTo decodes from the keyframe packet in s.pkt and drops frames up
// to the one before order[n]; it returns why the frames did not follow
// the seek as order says they must, or "".
func (s *Source) dropTo(order []int64, n int) string {
	before := order[n-1]
	fr := astiav.AllocFrame()
	defer fr.Free()
	keyPTS := s.pkt.Pts()
	have := true // s.pkt holds the keyframe's packet
	next := -1   // index in order of the next frame the decoder must give
	drain := func() (done bool, reason string) {
		for {
			if err := s.cc.ReceiveFrame(fr); err != nil {
				if errors.Is(err, astiav.ErrEagain) {
					return false, ""
				}
				return false, fmt.Sprintf("decoding after the seek: %v", err)
			}
			s.produced.Add(1)
			p := frameTimestamp(fr)
			fr.Unref()
			if p == noPTSValue {
				return false, "a frame decoded after the seek has no timestamp"
			}
			if p < keyPTS {
				continue // a picture leading the keyframe: before any wanted
			}
			if next < 0 {
				i, ok := slices.BinarySearch(order, p)
				if !ok || p != keyPTS {
					return false, "the first frame decoded after the seek is not its keyframe"
				}
				next = i
			}
			if next >= len(order) || order[next] != p {
				return false, "frames decoded after the seek are not the packets' frames in order"
			}
			next++
			if p == before {
				return true, ""
			}
			if p > before {
				return false, "the seek landed after the wanted frame"
			}
		}
	}
	for {
		if !have {
			if err := s.fc.ReadFrame(s.pkt); err != nil {
				return fmt.Sprintf("reading after the seek: %v", err)
			}
			if s.pkt.StreamIndex() != s.stream.Index() {
				s.pkt.Unref()
				continue
			}
		}
		have = false
		for {
			serr := s.cc.SendPacket(s.pkt)
			if serr != nil && !errors.Is(serr, astiav.ErrEagain) {
				s.pkt.Unref()
				return fmt.Sprintf("decoding after the seek: %v", serr)
			}
			done, reason := drain()
			if reason != "" {
				s.pkt.Unref()
				return reason
			}
			if done {
				if serr != nil {
					s.pending = true // the decoder takes it once its frames are read
				} else {
					s.pkt.Unref()
				}
				return ""
			}
			if serr == nil {
				s.pkt.Unref()
				break
			}
		}
	}
}

// scanPacketTimes reads the timestamps of url's video stream packets,
// or says why they cannot map frames to timestamps.
func scanPacketTimes(url string, opts Options) (packetTimes, string, error) {
	var pt packetTimes
	sc := &Source{name: url}
	defer sc.closeContexts()
	if err := sc.open(url, opts); err != nil {
		return pt, "", err
	}
	idx := sc.stream.Index()
	seen := make(map[int64]struct{})
	for {
		if err := sc.fc.ReadFrame(sc.pkt); err != nil {
			if errors.Is(err, astiav.ErrEof) {
				return pt, "", nil
			}
			return pt, "", fmt.Errorf("reading packets: %w", err)
		}
		if sc.pkt.StreamIndex() != idx {
			sc.pkt.Unref()
			continue
		}
		pts, dts, fl := sc.pkt.Pts(), sc.pkt.Dts(), sc.pkt.Flags()
		sc.pkt.Unref()
		switch {
		case pts == noPTSValue:
			return pt, fmt.Sprintf("packet %d has no presentation timestamp", len(pt.pts)), nil
		case fl.Has(astiav.PacketFlagDiscard) || fl.Has(astiav.PacketFlagCorrupt):
			return pt, fmt.Sprintf("packet %d is marked to discard or corrupt", len(pt.pts)), nil
		}
		if _, dup := seen[pts]; dup {
			return pt, fmt.Sprintf("two packets have presentation timestamp %d", pts), nil
		}
		seen[pts] = struct{}{}
		pt.pts = append(pt.pts, pts)
		pt.dts = append(pt.dts, dts)
		pt.key = append(pt.key, fl.Has(astiav.PacketFlagKey))
	}
}
