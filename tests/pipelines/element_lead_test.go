package pipelines

import (
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// TestElementLeadKeepsFilesInStep: two independent non-live sources stay
// within max-lead frames of each other for the whole run, rather than one
// running max-pending frames ahead and holding that many frames, and
// nothing is lost.
func TestElementLeadKeepsFilesInStep(t *testing.T) {
	const n, lead = 150, 8
	src := "videotestsrc num-buffers=150 pattern=ball ! video/x-raw,format=I420,width=160,height=120,framerate=25/1"
	run := gsttest.Launch(t, 2*time.Minute, src+" ! v.ref_sink "+src+" ! v.dist_sink vmafsink name=v threads=2")
	run.MustSucceed(t)
	p := run.Pooled(t)
	for k, v := range map[string]uint64{"frames-scored": n, "frames-unpaired-ref": 0, "frames-unpaired-dist": 0, "lead-releases": 0} {
		if got := p.Uint(t, k); got != v {
			t.Errorf("%s = %d, want %d", k, got, v)
		}
	}
	for _, k := range []string{"pending-high-ref", "pending-high-dist"} {
		if got := p.Uint(t, k); got > lead {
			t.Errorf("%s = %d, want at most max-lead %d", k, got, lead)
		}
	}
}
