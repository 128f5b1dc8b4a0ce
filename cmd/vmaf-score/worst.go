package main

import (
	"fmt"

	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/report/worstdir"
)

// worstFramesOr is --worst-frames, or the Runner's default when not given.
func (s *settings) worstFramesOr() int {
	if s.worstFrames == nil {
		return pipeline.DefaultWorstFrames
	}
	return *s.worstFrames
}

// writeWorst writes --worst-dir once every frame is scored.
func (rs *runnerSink) writeWorst() error {
	n := rs.r.WorstFrames()
	wrote, err := worstdir.Write(rs.worstDir, rs.r.Worst(n))
	if rs.stderr != nil {
		for rank, f := range wrote {
			fmt.Fprintf(rs.stderr, "vmaf-score: worst %d: frame %d, %s %.6f: %s\n", rank+1, f.FrameNum,
				f.Model, f.Score, worstdir.Pattern(rs.worstDir, f.FrameNum))
		}
		if err == nil && len(wrote) == 0 {
			fmt.Fprintf(rs.stderr, "vmaf-score: --worst-dir: no frame was scored, nothing written to %s\n", rs.worstDir)
		}
	}
	if rs.out != nil && len(wrote) > 0 {
		// The section goes into the results with their trailer.
		raw, merr := worstdir.SectionJSON(wrote)
		if merr != nil {
			return merr
		}
		rs.out.SetSection(worstdir.Section, raw)
	}
	if err != nil {
		return fmt.Errorf("--worst-dir: %w", err)
	}
	return nil
}
