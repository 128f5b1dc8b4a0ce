package vmaf

import "testing"

// TestEngineSkipKeepsScores: pairs given to Skip produce no Result but
// still count and feed motion, so every other frame scores exactly as in
// the full run, with subsampling too.
func TestEngineSkipKeepsScores(t *testing.T) {
	g := loadGolden(t, "flower_576x324_x264_crf22", 12)
	models := goldenModels(t)[:1]
	full := scoreAll(t, Config{Models: models, Threads: 1, Engine: "native"}, g.ref, g.dist)
	for _, tc := range []struct {
		name               string
		threads, subsample int
		skip               func(i int) bool
	}{
		{"one frame", 2, 1, func(i int) bool { return i == 5 }},
		{"a run", 1, 1, func(i int) bool { return i >= 3 && i <= 7 }},
		{"the first frames", 2, 1, func(i int) bool { return i < 3 }},
		{"the last frames", 3, 1, func(i int) bool { return i >= 9 }},
		{"with subsample", 2, 2, func(i int) bool { return i >= 4 && i <= 6 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []*Result
			ctx, err := NewContext(Config{Models: models, Threads: tc.threads, Subsample: tc.subsample, Engine: "native",
				OnResult: func(r *Result) { got = append(got, r.Clone()) }})
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for i := range g.ref {
				submit := ctx.Submit
				if tc.skip(i) {
					submit = ctx.Skip
				} else if i%tc.subsample == 0 {
					want++
				}
				if err := submit(g.ref[i], g.dist[i], nil); err != nil {
					t.Fatal(err)
				}
			}
			if err := ctx.Flush(); err != nil {
				t.Fatal(err)
			}
			if len(got) != want {
				t.Fatalf("%d results, want %d", len(got), want)
			}
			for _, r := range got {
				if tc.skip(r.Index) {
					t.Errorf("skipped frame %d has a result", r.Index)
					continue
				}
				for k, m := range r.Metrics {
					if f := full[r.Index].Metrics[k]; m != f {
						t.Errorf("frame %d %s: %v, full run %v", r.Index, m.Name, m.Value, f.Value)
					}
				}
			}
		})
	}
}
