package motion

// Seq turns the per-frame SAD scores, taken in frame order, into
// libvmaf's integer_motion2 and integer_motion3. libvmaf derives both at the
// end of the stream; here a frame's values are final as soon as the next
// frame's SAD is known, so they come out one frame late, and the last frame
// at Flush. The results equal libvmaf's with its default options: a
// three-frame window, no moving average, blend factor 1 at offset 40 and the
// 10000 cap.
type Seq struct {
	n       int     // frames pushed
	lastSAD float64 // SAD of frame n-1, whose values are not yet final
	done    bool    // flushed: frame n-1 has been finalised

	ready []Scores // final, not yet returned by Next
	head  int
}

// Scores are one frame's motion features: SAD is integer_motion
// (VMAF_integer_feature_motion_sad_score), Motion2 and Motion3 are
// integer_motion2 and integer_motion3.
type Scores struct {
	Index                 int
	SAD, Motion2, Motion3 float64
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

// Push adds the SAD of the next frame in order (0 for frame 0). After a
// Flush, call Reset before pushing a new stream.
func (s *Seq) Push(sad float64) {
	if s.done {
		return
	}
	if k := s.n; k > 0 {
		prev := k - 1
		sc := Scores{Index: prev, SAD: s.lastSAD}
		if prev == 0 {
			// Frame 0 has no motion of its own; its motion3 borrows frame
			// 1's SAD so that the pooled motion3 does not start at zero.
			sc.Motion3 = motionPost(sad)
		} else {
			sc.Motion2 = min(s.lastSAD, sad)
			sc.Motion3 = motionPost(sc.Motion2)
		}
		s.emit(sc)
	}
	s.lastSAD = sad
	s.n++
}

// Flush marks the end of the stream: the last frame's values, which have no
// successor to compare with, become final.
func (s *Seq) Flush() {
	if s.done || s.n == 0 {
		s.done = true
		return
	}
	s.done = true
	last := s.n - 1
	sc := Scores{Index: last, SAD: s.lastSAD}
	if last > 0 {
		sc.Motion2 = s.lastSAD
		sc.Motion3 = motionPost(sc.Motion2)
	}
	s.emit(sc)
}

func (s *Seq) emit(sc Scores) {
	if s.head == len(s.ready) {
		s.ready, s.head = s.ready[:0], 0
	}
	s.ready = append(s.ready, sc)
}

// Next returns the next frame whose values are final, in frame order.
func (s *Seq) Next() (Scores, bool) {
	if s.head == len(s.ready) {
		return Scores{}, false
	}
	sc := s.ready[s.head]
	s.head++
	return sc, true
}

// Reset forgets the stream, keeping the queue's memory.
func (s *Seq) Reset() {
	*s = Seq{ready: s.ready[:0]}
}
