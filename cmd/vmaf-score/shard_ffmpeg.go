//go:build !lazyffmpeg

package main

import "github.com/vmafsink/vmafsink/internal/ffsource"

// countFFmpegFrames counts an FFmpeg input's frames from its packets: a
// container's frame count may be an estimate, and parts split by it
// must cover the run exactly.
func (s *settings) countFFmpegFrames(path string, isDist bool) (int, error) {
	return ffsource.CountFrames(path, s.ffmpegOptions(isDist, 0))
}
