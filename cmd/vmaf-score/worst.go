package main

import "github.com/vmafsink/vmafsink/pipeline"

// worstFramesOr is --worst-frames, or the Runner's default when not given.
func (s *settings) worstFramesOr() int {
	if s.worstFrames == nil {
		return pipeline.DefaultWorstFrames
	}
	return *s.worstFrames
}
