package vmaf

import (
	"math"
	"testing"
)

// TestAggregatesOfParts: a stream scored in parts, each part's frames
// submitted and the rest skipped, gives through AggregatesOf the aggregate
// metrics of the whole stream scored at once, to the bit.
func TestAggregatesOfParts(t *testing.T) {
	g := loadGolden(t, "flower_576x324_x264_crf22", 12)
	features := []string{"psnr=enable_apsnr=true"}
	run := func(threads int, score func(i int) bool) (*Context, []Metric) {
		ctx, err := NewContext(Config{Features: features, Threads: threads, Engine: "native"})
		if err != nil {
			t.Fatal(err)
		}
		for i := range g.ref {
			submit := ctx.Skip
			if score(i) {
				submit = ctx.Submit
			}
			if err := submit(g.ref[i], g.dist[i], nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := ctx.Flush(); err != nil {
			t.Fatal(err)
		}
		return ctx, ctx.Aggregates()
	}
	_, whole := run(2, func(int) bool { return true })
	if len(whole) != 3 {
		t.Fatalf("aggregates %v, want apsnr_y, apsnr_cb, apsnr_cr", whole)
	}
	var parts [][]AggregateState
	for _, r := range [][2]int{{7, 12}, {0, 3}, {3, 7}} {
		ctx, _ := run(1+r[0]%2, func(i int) bool { return i >= r[0] && i < r[1] })
		parts = append(parts, ctx.AggregateStates())
	}
	f := *g.ref[0]
	got, err := AggregatesOf(Config{Features: features}, f, parts)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(whole) {
		t.Fatalf("%v, want %v", got, whole)
	}
	for i := range whole {
		if got[i].Name != whole[i].Name || math.Float64bits(got[i].Value) != math.Float64bits(whole[i].Value) {
			t.Errorf("%s = %v, the whole stream's %s = %v", got[i].Name, got[i].Value, whole[i].Name, whole[i].Value)
		}
	}
	if _, err := AggregatesOf(Config{Features: []string{"psnr"}}, f, parts); err == nil {
		t.Error("states of psnr with apsnr merged into psnr without it")
	}
}
