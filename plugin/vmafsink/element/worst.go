package element

import (
	"errors"
	"fmt"
	"os"

	"github.com/vmafsink/vmafsink/report/worstdir"
)

// worstFramesKept is the worst-frames property as the Runner takes it:
// only the control plane and worst-dir show the pictures, so without
// them none are kept (and no buffer is held for them).
func (s *settings) worstFramesKept() int {
	if !s.serveMCP() && s.worstDir == "" {
		return 0
	}
	return int(s.worstFrames)
}

// checkWorstDir refuses a worst-dir that could not be written, at start
// rather than at EOS, when the run's pictures would be lost.
func (s *settings) checkWorstDir() error {
	if s.worstDir == "" {
		return nil
	}
	switch {
	case s.worstFrames == 0:
		return fmt.Errorf("worst-dir %q with worst-frames=0 would write nothing", s.worstDir)
	case s.engine == engineLibvmaf:
		return fmt.Errorf("worst-dir %q: engine=libvmaf copies the pictures away; the native engine keeps them", s.worstDir)
	}
	if err := os.MkdirAll(s.worstDir, 0o755); err != nil {
		return fmt.Errorf("worst-dir %q: %w", s.worstDir, err)
	}
	return nil
}

// writeWorst writes worst-dir once every frame is scored, and lists what
// it wrote in the results file. A stream restarted after its end writes
// again at its next EOS, replacing the pictures of its first end, so the
// directory holds what the section lists.
func (st *runState) writeWorst() {
	dir := st.settings.worstDir
	for _, path := range st.worstFiles {
		os.Remove(path) // gone already is as good
	}
	st.worstFiles = nil
	wrote, err := worstdir.Write(dir, st.runner.Worst(st.runner.WorstFrames()))
	for rank, f := range wrote {
		for _, path := range f.Images {
			st.worstFiles = append(st.worstFiles, path)
		}
		st.e.logf(lvlInfo, "worst %d: frame %d, %s %.6f: %s", rank+1, f.FrameNum, f.Model, f.Score, worstdir.Pattern(dir, f.FrameNum))
	}
	if err == nil && len(wrote) == 0 {
		st.e.logf(lvlInfo, "worst-dir: no frame was scored, nothing written to %s", dir)
	}
	if st.results != nil && len(wrote) > 0 {
		raw, merr := worstdir.SectionJSON(wrote)
		err = errors.Join(err, merr)
		if merr == nil {
			st.results.section(worstdir.Section, raw)
		}
	}
	if err != nil {
		st.e.fail(errWrite, "cannot write the worst frames", fmt.Sprintf("worst-dir %q: %v", dir, err))
	}
}
