package attach

import (
	"path/filepath"
	"testing"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/pipeline"
)

// TestRangeAndHistory: full records come from the Runner's recent span
// (Config.Recent), scores-only records from its analytics before it.
func TestRangeAndHistory(t *testing.T) {
	r := newRunnerWith(t, pipeline.Config{Recent: 5, Analytics: analytics.Config{AlertThreshold: 10}})
	sock := filepath.Join(t.TempDir(), "s")
	p, err := Start(Config{Socket: sock, Runner: r, Engine: "native"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	ref, dist := frames(t, 2, 48, 48)
	const n = 12
	for i := range n {
		push(t, r, ref[i%2], dist[i%2])
	}
	r.EndOfStream(pipeline.Ref)
	r.EndOfStream(pipeline.Dist)
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	tg := p.target
	if tg.Analytics() != r.Analytics() || r.Analytics().Scored() != n {
		t.Fatalf("analytics saw %d frames", r.Analytics().Scored())
	}
	if got := tg.Range(0, 100, 100); len(got) != 5 || got[0].Frame != 7 || got[4].Frame != 11 {
		t.Errorf("Range(0, 100) = %d records from %d", len(got), got[0].Frame)
	}
	if got := tg.Range(8, 100, 2); len(got) != 2 || got[0].Frame != 8 {
		t.Errorf("Range(8, 100, 2) = %+v", got)
	}
	var sc control.Scores
	if msg := call(t, client(t, sock), "vmaf_score", map[string]any{"from": 0, "to": n - 1}, &sc); msg != "" {
		t.Fatal(msg)
	}
	if len(sc.Records) != n || sc.History == nil || sc.History.ScoresOnly != 7 || sc.History.FullFrom != 7 {
		t.Fatalf("%d records, history %+v", len(sc.Records), sc.History)
	}
	recent := tg.Range(0, 100, 100)
	for i, rec := range sc.Records {
		if rec.Frame != int64(i) || (i < 7) != (len(rec.Features) == 0) {
			t.Errorf("record %d: %+v", i, rec)
		}
		// Frames alternate between two pictures, so after the first
		// (no motion yet) a frame scores as the kept one of its parity;
		// the history keeps the score as float32.
		if i == 0 {
			continue
		}
		want := recent[i%2+1].Score // frames 8 (even) and 9 (odd)
		if i >= 7 && rec.Score != recent[i-7].Score || rec.Score-want > 1e-4 || want-rec.Score > 1e-4 {
			t.Errorf("record %d scores %v, want %v", i, rec.Score, want)
		}
	}
}
