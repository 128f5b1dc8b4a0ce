package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/vmafsink/vmafsink/tune"
)

// TestCompare ranks two encoders at a target and checks the BD-rates: an
// encoder against itself is 0 and is answered from the cache, and each
// ranked row meets its target.
func TestCompare(t *testing.T) {
	ref := clips.Y4M(t, "flower_576x324_ref.y4m")
	code, out, errOut := runTune(t, "compare", "-i", ref, "--encoders", "libx264:veryfast,libx265:ultrafast,libx264:veryfast",
		"--targets", "92", "--json", "-q", "--cache-dir", filepath.Join(t.TempDir(), "cache"))
	if code != exitOK {
		t.Fatalf("compare: exit %d: %s", code, errOut)
	}
	var r tune.CompareResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Anchor != "libx264:veryfast" || len(r.Rows) != 3 || len(r.Curves) != 3 {
		t.Fatalf("compare %+v", r)
	}
	for i, row := range r.Rows {
		if row.Error != "" || row.VMAF < row.Target || row.Rank != i+1 || (i > 0 && row.BitrateKbps < r.Rows[i-1].BitrateKbps) {
			t.Errorf("row %d: %+v", i, row)
		}
	}
	if c := r.Curves[2]; c.BDRate == nil || *c.BDRate != 0 {
		t.Errorf("the anchor against itself: %+v", c)
	}
	if c := r.Curves[1]; c.BDRate == nil && c.BDRateError == "" {
		t.Errorf("libx265 curve: %+v", c)
	}
	if len(r.Curves[0].Points) != 5 {
		t.Errorf("sweep of %d points", len(r.Curves[0].Points))
	}
	// The repeated encoder's search and sweep were all cached.
	if r.CacheHits < r.Rows[0].Encodes+5 {
		t.Errorf("%d cache hits of %d encodes", r.CacheHits, r.Encodes)
	}
}
