package pipelines

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// TestElementResultsOnStop interrupts an endless live pipeline: gst-launch
// sets it to NULL without EOS, and the results file must still be a
// complete document holding every frame scored up to then.
func TestElementResultsOnStop(t *testing.T) {
	for _, format := range []string{"json", "xml", "csv"} {
		t.Run(format, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "results."+format)
			p := gsttest.Start(t, "videotestsrc is-live=true pattern=ball ! "+testSrcCaps+" ! tee name=t "+
				"t. ! queue ! v.ref_sink t. ! queue ! videoflip method=horizontal-flip ! v.dist_sink "+
				"vmafsink name=v threads=1 frame-message=false results-filename="+path+" results-format="+format)
			deadline := time.Now().Add(2 * time.Minute)
			var before int
			for before < 10 {
				if time.Now().After(deadline) {
					t.Fatalf("fewer than 10 frames in the results file after 2 minutes:\n%s", p.Output())
				}
				select {
				case err := <-p.Done():
					t.Fatalf("gst-launch ended early: %v\n%s", err, p.Output())
				case <-time.After(200 * time.Millisecond):
				}
				if data, err := os.ReadFile(path); err == nil {
					if frames, err := gsttest.ParseResults(data, format); err == nil {
						before = len(frames)
					}
				}
			}
			if err := p.Cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			select {
			case <-p.Done():
			case <-time.After(time.Minute):
				t.Fatalf("gst-launch did not stop on SIGINT:\n%s", p.Output())
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			frames, err := gsttest.ParseResults(data, format)
			if err != nil {
				t.Fatalf("results file after stop is not a valid %s document: %v\n%s", format, err, data)
			}
			if len(frames) < before {
				t.Errorf("results file has %d frames after stop, had %d before", len(frames), before)
			}
			for i, f := range frames {
				if f.Num != i || f.Model != "vmaf_v0.6.1" || len(f.Metrics) == 0 {
					t.Fatalf("frame %d: frameNum %d model %q, %d metrics", i, f.Num, f.Model, len(f.Metrics))
				}
			}
		})
	}
}
