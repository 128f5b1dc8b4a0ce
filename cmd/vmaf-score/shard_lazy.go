//go:build lazyffmpeg

package main

import "errors"

// countFFmpegFrames is never reached in this build: a run with an input
// FFmpeg decodes is handed to vmaf-score-ffmpeg before it starts.
func (s *settings) countFFmpegFrames(string, bool) (int, error) {
	return 0, errors.New("this build reads .y4m and raw .yuv only")
}
