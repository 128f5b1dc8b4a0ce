package element

// worstFramesKept is the worst-frames property as the Runner takes it:
// only the control plane shows the pictures, so without it none are kept
// (and no buffer is held for them).
func (s *settings) worstFramesKept() int {
	if !s.serveMCP() {
		return 0
	}
	return int(s.worstFrames)
}
