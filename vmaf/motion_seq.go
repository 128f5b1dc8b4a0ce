package vmaf

// motionSeq turns the per-frame SAD scores, taken in frame order, into
// libvmaf's integer_motion2 and integer_motion3. libvmaf derives both at the
// end of the stream; here a frame's values are final as soon as the next
// frame's SAD is known, so they come out one frame late, and the last frame
// at flush. The results equal libvmaf's with its default options: a
// three-frame window, no moving average, blend factor 1 at offset 40 and the
// 10000 cap.
type motionSeq struct {
	n       int     // frames pushed
	lastSAD float64 // SAD of frame n-1, whose values are not yet final
	done    bool    // flushed: frame n-1 has been finalised

	ready []motionScores // final, not yet returned by next
	head  int
}

// motionScores are one frame's motion features: sad is integer_motion
// (VMAF_integer_feature_motion_sad_score), motion2 and motion3 are
// integer_motion2 and integer_motion3.
type motionScores struct {
	index                 int
	sad, motion2, motion3 float64
}

const (
	motionBlendFactor = 1.0
	motionBlendOffset = 40.0
)

// motionBlend mixes a score with its value clipped at the blend offset; at
// the default factor of 1 it returns the score unchanged.
func motionBlend(v float64) float64 {
	return v*motionBlendFactor + (1-motionBlendFactor)*min(motionBlendOffset, v)
}

func motionPost(v float64) float64 {
	return min(motionBlend(v), motionMaxValue)
}

// push adds the SAD of the next frame in order (0 for frame 0). After a
// flush, call reset before pushing a new stream.
func (s *motionSeq) push(sad float64) {
	if s.done {
		return
	}
	if k := s.n; k > 0 {
		prev := k - 1
		sc := motionScores{index: prev, sad: s.lastSAD}
		if prev == 0 {
			// Frame 0 has no motion of its own; its motion3 borrows frame
			// 1's SAD so that the pooled motion3 does not start at zero.
			sc.motion3 = motionPost(sad)
		} else {
			sc.motion2 = min(s.lastSAD, sad)
			sc.motion3 = motionPost(sc.motion2)
		}
		s.emit(sc)
	}
	s.lastSAD = sad
	s.n++
}

// flush marks the end of the stream: the last frame's values, which have no
// successor to compare with, become final.
func (s *motionSeq) flush() {
	if s.done || s.n == 0 {
		s.done = true
		return
	}
	s.done = true
	last := s.n - 1
	sc := motionScores{index: last, sad: s.lastSAD}
	if last > 0 {
		sc.motion2 = s.lastSAD
		sc.motion3 = motionPost(sc.motion2)
	}
	s.emit(sc)
}

func (s *motionSeq) emit(sc motionScores) {
	if s.head == len(s.ready) {
		s.ready, s.head = s.ready[:0], 0
	}
	s.ready = append(s.ready, sc)
}

// next returns the next frame whose values are final, in frame order.
func (s *motionSeq) next() (motionScores, bool) {
	if s.head == len(s.ready) {
		return motionScores{}, false
	}
	sc := s.ready[s.head]
	s.head++
	return sc, true
}

// reset forgets the stream, keeping the queue's memory.
func (s *motionSeq) reset() {
	*s = motionSeq{ready: s.ready[:0]}
}
