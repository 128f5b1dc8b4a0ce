package pipeline

import (
	"bytes"
	"image/png"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf"
)

// worstIndices is the indices of the n lowest-scoring records, ties
// broken by the earlier frame, as the store keeps them.
func worstIndices(recs []*Record, n int) []int {
	s := slices.Clone(recs)
	slices.SortStableFunc(s, func(a, b *Record) int {
		switch {
		case a.Score < b.Score:
			return -1
		case a.Score > b.Score:
			return 1
		}
		return a.Index - b.Index
	})
	var out []int
	for _, r := range s[:min(n, len(s))] {
		out = append(out, r.Index)
	}
	return out
}

func indicesOf(w []WorstFrame) []int {
	var out []int
	for _, f := range w {
		out = append(out, f.Record.Index)
	}
	return out
}

// The kept frames are the N lowest scores, the first WorstFrames of them
// with images of the source's size, and every frame goes back to the host
// exactly once, whether the run finishes or is abandoned.
func TestWorstFramesKeepsLowestScores(t *testing.T) {
	for _, tc := range []struct {
		name             string
		images, frames   int
		subsample, close bool
	}{
		{name: "finish", images: 4, frames: 60},
		{name: "fewer frames than kept", images: 8, frames: 5},
		{name: "subsampled", images: 3, frames: 40, subsample: true},
		{name: "abandoned", images: 4, frames: 30, close: true},
		{name: "off", images: 0, frames: 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := &fakeEngine{}
			r := newTestRunner(t, eng, func(c *Config) {
				c.Pairing = PairByOrder
				c.WorstFrames = tc.images
				if tc.subsample {
					c.Scorer.Subsample = 3
				}
			})
			recs := collect(r)
			fs := newFrames(t)
			fs.w, fs.h = 64, 36
			rng := rand.New(rand.NewPCG(1, uint64(tc.frames)))
			for range tc.frames {
				// The fake scores 100 - (ref - dist): ties happen.
				push(t, r, Ref, fs.frame(byte(100+rng.IntN(40)), -1))
				push(t, r, Dist, fs.frame(100, -1))
			}
			if tc.close {
				r.Close()
				fs.checkReleased()
				return
			}
			finish(t, r)
			fs.checkReleased()
			all := recs.records()
			if len(all) == 0 {
				t.Fatal("no records")
			}
			got := r.Worst(MaxWorstRecords)
			if want := worstIndices(all, MaxWorstRecords); !slices.Equal(indicesOf(got), want) {
				t.Fatalf("worst %v, want %v", indicesOf(got), want)
			}
			for i, f := range got {
				if (f.Images != nil) != (i < tc.images) {
					t.Errorf("rank %d (frame %d): images %v, want them only for the first %d", i, f.Record.Index, f.Images != nil, tc.images)
				}
				if f.Images != nil && (f.Images.Width != 64 || f.Images.Height != 36) {
					t.Errorf("frame %d: images %dx%d, want the source's 64x36", f.Record.Index, f.Images.Width, f.Images.Height)
				}
			}
			if n := len(r.Worst(2)); n != min(2, len(all)) {
				t.Errorf("Worst(2) returned %d", n)
			}
		})
	}
}

// The native engine gives pictures back before the score is known; the
// held frames still reach the store, and an unscaled thumbnail is the
// source's luma itself.
func TestWorstFramesNativeEngine(t *testing.T) {
	c := loadClip(t)
	r, recs := engineRunner(t, func(cfg *Config) { cfg.WorstFrames = 3 }, nil)
	var released atomic.Int32
	for i := range clipFrames {
		push(t, r, Ref, Frame{Picture: c.ref[i], Timing: Untimed, Owner: countRelease(&released)})
		push(t, r, Dist, Frame{Picture: c.dist[i], Timing: Untimed, Owner: countRelease(&released)})
	}
	finish(t, r)
	if n := released.Load(); n != 2*clipFrames {
		t.Errorf("%d frames released, want %d", n, 2*clipFrames)
	}
	got := r.Worst(5)
	if want := worstIndices(recs.records(), 5); !slices.Equal(indicesOf(got), want) {
		t.Fatalf("worst %v, want %v", indicesOf(got), want)
	}
	for i, f := range got[:3] {
		th := f.Images
		if th == nil {
			t.Fatalf("rank %d: no images", i)
		}
		src := c.ref[f.Record.Index]
		for y := range src.Height {
			if !bytes.Equal(th.Ref.Y[y*th.Width:][:th.Width], src.Planes[0][y*src.Strides[0]:][:src.Width]) {
				t.Fatalf("frame %d: reference luma row %d differs from the source", f.Record.Index, y)
			}
		}
	}
}

type releaseCounter struct{ n *atomic.Int32 }

func (c releaseCounter) Release() { c.n.Add(1) }

func countRelease(n *atomic.Int32) Releaser { return releaseCounter{n} }

func TestThumbSize(t *testing.T) {
	for _, tc := range []struct{ w, h, max, ww, wh int }{
		{1920, 1080, 640, 640, 360},
		{3840, 2160, 640, 640, 360},
		{1280, 720, 640, 640, 360},
		{720, 576, 640, 640, 512},
		{576, 324, 640, 576, 324},
		{1920, 1080, 100, 100, 56},
		{1920, 1080, 0, 1920, 1080},
	} {
		if w, h := thumbSize(tc.w, tc.h, tc.max); w != tc.ww || h != tc.wh {
			t.Errorf("%dx%d at most %d wide: %dx%d, want %dx%d", tc.w, tc.h, tc.max, w, h, tc.ww, tc.wh)
		}
	}
}

// fillPlane sets plane i of p to v everywhere, and to v+delta in the
// left half when delta is not 0.
func fillPlane(p *vmaf.Picture, i, v, delta int) {
	w, h := p.PlaneSize(i)
	for y := range h {
		for x := range w {
			s := v
			if x < w/2 {
				s += delta
			}
			if p.BitDepth > 8 {
				p.Planes[i][y*p.Strides[i]+2*x] = byte(s)
				p.Planes[i][y*p.Strides[i]+2*x+1] = byte(s >> 8)
			} else {
				p.Planes[i][y*p.Strides[i]+x] = byte(s)
			}
		}
	}
}

// Every bit depth and chroma format reduces to 8-bit 4:4:4 at most 640
// wide with the source's aspect; flat planes stay flat at their 8-bit
// value, and the difference map is the luma difference where it is.
func TestThumbsFormats(t *testing.T) {
	for _, tc := range []struct {
		w, h, depth int
		chroma      vmaf.Chroma
		tw, th      int
	}{
		{1920, 1080, 8, vmaf.Chroma420, 640, 360},
		{1920, 1080, 10, vmaf.Chroma422, 640, 360},
		{1280, 720, 10, vmaf.Chroma420, 640, 360},
		{720, 576, 12, vmaf.Chroma444, 640, 512},
		{640, 480, 16, vmaf.Chroma400, 640, 480},
		{352, 288, 8, vmaf.Chroma422, 352, 288},
	} {
		name := describe(&vmaf.Picture{Width: tc.w, Height: tc.h, BitDepth: tc.depth, Chroma: tc.chroma})
		t.Run(name, func(t *testing.T) {
			ref, err := vmaf.NewPicture(tc.w, tc.h, tc.depth, tc.chroma)
			if err != nil {
				t.Fatal(err)
			}
			dist, _ := vmaf.NewPicture(tc.w, tc.h, tc.depth, tc.chroma)
			up := tc.depth - 8
			// 8-bit values 100 (luma), 90 and 160 (chroma); the
			// distorted luma is 20 8-bit codes brighter on the left.
			fillPlane(ref, 0, 100<<up, 0)
			fillPlane(dist, 0, 100<<up, 20<<up)
			if tc.chroma != vmaf.Chroma400 {
				for _, p := range []*vmaf.Picture{ref, dist} {
					fillPlane(p, 1, 90<<up, 0)
					fillPlane(p, 2, 160<<up, 0)
				}
			}
			th := newThumbs(ref, dist, ThumbMaxWidth)
			if th.Width != tc.tw || th.Height != tc.th {
				t.Fatalf("%dx%d, want %dx%d", th.Width, th.Height, tc.tw, tc.th)
			}
			n := tc.tw * tc.th
			for _, p := range [][]byte{th.Ref.Y, th.Dist.Y, th.Diff} {
				if len(p) != n {
					t.Fatalf("plane of %d samples, want %d", len(p), n)
				}
			}
			if tc.chroma == vmaf.Chroma400 {
				if th.Ref.Cb != nil {
					t.Error("chroma planes for a luma-only source")
				}
			} else if th.Ref.Cb[n/2] != 90 || th.Dist.Cr[n-1] != 160 {
				t.Errorf("chroma %d, %d, want 90, 160", th.Ref.Cb[n/2], th.Dist.Cr[n-1])
			}
			row := th.Height / 2 * th.Width
			if th.Ref.Y[row] != 100 || th.Dist.Y[row] != 120 || th.Dist.Y[row+th.Width-1] != 100 {
				t.Errorf("luma ref %d, dist left %d right %d; want 100, 120, 100", th.Ref.Y[row], th.Dist.Y[row], th.Dist.Y[row+th.Width-1])
			}
			if th.Diff[row] != 20 || th.Diff[row+th.Width-1] != 0 {
				t.Errorf("difference left %d right %d, want 20, 0", th.Diff[row], th.Diff[row+th.Width-1])
			}
			for _, k := range []ImageKind{ImageReference, ImageDistorted, ImageDifference} {
				img, err := th.Image(k, 320)
				if err != nil {
					t.Fatal(err)
				}
				ww, wh := thumbSize(th.Width, th.Height, 320)
				if b := img.Bounds(); b.Dx() != ww || b.Dy() != wh {
					t.Errorf("%v at 320: %v, want %dx%d", k, b, ww, wh)
				}
				var buf bytes.Buffer
				if err := png.Encode(&buf, img); err != nil {
					t.Fatal(err)
				}
				if _, err := png.Decode(&buf); err != nil {
					t.Errorf("%v: %v", k, err)
				}
			}
			img, _ := th.Image(ImageDifference, 0)
			if c := img.RGBAAt(0, th.Height/2); c != DiffColor(20) {
				t.Errorf("difference colour %v, want %v", c, DiffColor(20))
			}
		})
	}
}

func TestDiffColor(t *testing.T) {
	for _, tc := range []struct {
		d       uint8
		r, g, b uint8
	}{
		{0, 0, 0, 0}, {2, 0, 0, 128}, {4, 0, 0, 255}, {8, 0, 255, 255},
		{16, 255, 255, 0}, {32, 255, 0, 0}, {64, 255, 255, 255}, {200, 255, 255, 255},
	} {
		if c := DiffColor(tc.d); c.R != tc.r || c.G != tc.g || c.B != tc.b {
			t.Errorf("DiffColor(%d) = %v, want %d,%d,%d", tc.d, c, tc.r, tc.g, tc.b)
		}
	}
}

// The whole-factor reduction is the area average the general one makes,
// to rounding.
func TestThumbsWholeMatchesGeneral(t *testing.T) {
	for _, depth := range []int{8, 10} {
		ref, dist := benchPair(t, depth, 2, 20)
		rs := newResampler(1920, 1080, 640, 360)
		fx, fy, ok := rs.wholeRatio()
		if !ok || fx != 3 || fy != 3 {
			t.Fatalf("1920x1080 to 640x360: factors %d, %d, %v", fx, fy, ok)
		}
		deep, div := depth > 8, uint32(9)<<(depth-8)
		scale := 1 / float32(int(1)<<(depth-8))
		for name, pair := range map[string][2][]byte{
			"luma":       {rs.planeWhole(3, 3, sumRows(ref, 0, deep), div), rs.plane(planeRows(ref, 0, deep), scale)},
			"difference": {rs.planeWhole(3, 3, sumDiffRows(ref, dist, deep), div), rs.plane(diffRows(ref, dist, deep), scale)},
		} {
			for i := range pair[0] {
				if d := int(pair[0][i]) - int(pair[1][i]); d < -1 || d > 1 {
					t.Fatalf("%d-bit %s sample %d: %d whole, %d general", depth, name, i, pair[0][i], pair[1][i])
				}
			}
		}
	}
}

// A frame from a bounded upstream pool is not held for its result: it is
// copied and given back when the engine is done with it, before the
// result arrives, and its images are made from the copy.
func TestWorstFramesBoundedPoolCopied(t *testing.T) {
	eng := &fakeEngine{}
	var mu sync.Mutex
	owners := map[int][2]*owner{}
	var early atomic.Int32 // results that found their frames given back
	r := newTestRunner(t, eng, func(c *Config) {
		c.Pairing = PairByOrder
		c.WorstFrames = 4
		c.newScorer = func(cfg vmaf.Config) (scorer, error) {
			deliver := cfg.OnResult
			cfg.OnResult = func(res *vmaf.Result) {
				mu.Lock()
				o := owners[res.Index]
				mu.Unlock()
				if o[0].n.Load() == 1 && o[1].n.Load() == 1 {
					early.Add(1)
				}
				deliver(res)
			}
			return eng.newScorer(cfg)
		}
	})
	fs := newFrames(t)
	fs.w, fs.h = 64, 36
	const n = 20
	for i := range n {
		ref, dist := fs.frame(byte(100+i%7), -1), fs.frame(100, -1)
		ref.HoldLimit, dist.HoldLimit = 2, 2
		mu.Lock()
		owners[i] = [2]*owner{fs.owners[len(fs.owners)-2], fs.owners[len(fs.owners)-1]}
		mu.Unlock()
		push(t, r, Ref, ref)
		push(t, r, Dist, dist)
	}
	finish(t, r)
	fs.checkReleased()
	if got := early.Load(); got != n {
		t.Errorf("%d of %d results found their frames given back", got, n)
	}
	for _, f := range r.Worst(4) {
		if f.Images == nil || f.Images.Width != 64 {
			t.Errorf("frame %d: images %+v", f.Record.Index, f.Images)
		}
	}
}

// A frame whose score is not a number is no worst frame: kept, it would
// sort nowhere, hold the first place and an image slot for the rest of the
// run, and keep every later frame out once the store is full.
func TestWorstFramesSkipNonFinite(t *testing.T) {
	w := newWorstStore(1)
	model := &vmaf.Model{Name: "vmaf"}
	offer := func(index int, score float64) {
		res := &vmaf.Result{Index: index, Models: []*vmaf.Model{model}, Metrics: []vmaf.Metric{{Name: "vmaf", Value: score}}}
		w.offer(index, Timing{}, res, score, &[2]Frame{})
	}
	offer(0, math.NaN())
	offer(1, math.Inf(-1))
	offer(2, 40)
	offer(3, 20)
	got := w.list(MaxWorstRecords)
	if want := []int{3, 2}; !slices.Equal(indicesOf(got), want) {
		t.Errorf("worst %v, want %v", indicesOf(got), want)
	}
}
