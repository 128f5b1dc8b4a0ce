package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/vmaf"
)

// fakeSource yields frames with the given timestamps (in frames of 40ms)
// and counts what is handed out and given back.
type fakeSource struct {
	pts      []int
	pos      int
	err      error // returned after the frames instead of io.EOF
	pics     []vmaf.Picture
	out      int
	released int
}

func newFake(pts ...int) *fakeSource {
	f := &fakeSource{pts: pts, pics: make([]vmaf.Picture, len(pts))}
	for i, p := range pts {
		f.pics[i].Width = p // tag each picture with its timestamp
	}
	return f
}

func (f *fakeSource) next() (frame, error) {
	if f.pos == len(f.pts) {
		if f.err != nil {
			return frame{}, f.err
		}
		return frame{}, io.EOF
	}
	i := f.pos
	f.pos++
	f.out++
	return frame{pic: &f.pics[i], pts: time.Duration(f.pts[i]) * 40 * time.Millisecond, dur: 40 * time.Millisecond,
		release: func() { f.released++ }}, nil
}

func (f *fakeSource) format() picFormat { return picFormat{} }
func (f *fakeSource) total() int        { return len(f.pts) }
func (f *fakeSource) close()            {}

// pairs runs an aligner to the end and returns each pair's timestamps as
// "ref/dist", releasing them as the engine would.
func pairs(t *testing.T, a *aligner) ([]string, error) {
	t.Helper()
	var got []string
	for {
		r, d, err := a.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return got, err
		}
		got = append(got, fmt.Sprintf("%02d/%02d", r.pic.Width, d.pic.Width))
		r.release()
		d.release()
	}
}

func TestAlign(t *testing.T) {
	tests := []struct {
		name      string
		ref, dist []int
		byPTS     bool
		skipRef   int
		want      string
		note      string
	}{
		{"order", []int{0, 1, 2}, []int{5, 6, 7}, false, 0, "00/05 01/06 02/07", ""},
		{"order, distorted shorter", []int{0, 1, 2, 3}, []int{0, 1}, false, 0, "00/00 01/01",
			`"d" ended before "r" (2 reference frames left)`},
		{"order, reference shorter", []int{0}, []int{0, 1, 2}, false, 0, "00/00",
			`"r" ended before "d" (2 distorted frames left)`},
		{"skip", []int{0, 1, 2, 3}, []int{0, 1}, false, 2, "02/00 03/01", ""},
		{"pts, dropped distorted frame", []int{0, 1, 2, 3, 4}, []int{0, 1, 3, 4}, true, 0, "00/00 01/01 03/03 04/04",
			"1 reference and 0 distorted frame(s) had no partner by timestamp"},
		{"pts, late start", []int{0, 1, 2, 3}, []int{2, 3, 4}, true, 0, "02/02 03/03",
			`"r" ended before "d" (1 distorted frame left); 2 reference and 0 distorted frame(s) had no partner by timestamp`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ref, dist := newFake(tc.ref...), newFake(tc.dist...)
			a := &aligner{ref: ref, dist: dist, refName: "r", distName: "d", byPTS: tc.byPTS}
			if err := a.skip(sideRef, tc.skipRef); err != nil {
				t.Fatal(err)
			}
			got, err := pairs(t, a)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("pairs %q, want %q", strings.Join(got, " "), tc.want)
			}
			if note := a.finish(); note != tc.note {
				t.Errorf("note %q, want %q", note, tc.note)
			}
			a.release()
			if ref.out != ref.released || dist.out != dist.released {
				t.Errorf("released %d/%d reference and %d/%d distorted frames", ref.released, ref.out, dist.released, dist.out)
			}
		})
	}
}

func TestAlignErrors(t *testing.T) {
	a := &aligner{ref: newFake(0, 1), dist: newFake(0), refName: "r", distName: "d"}
	if err := a.skip(sideRef, 3); err == nil || !strings.Contains(err.Error(), `"r" has only 2 frames, cannot skip 3`) {
		t.Errorf("skip past the end: %v", err)
	}
	broken := newFake(0, 1)
	broken.err = errors.New("d: decoding frame 2: Invalid data")
	a = &aligner{ref: newFake(0, 1, 2, 3), dist: broken, refName: "r", distName: "d"}
	got, err := pairs(t, a)
	if len(got) != 2 || err != broken.err {
		t.Errorf("%d pairs then %v", len(got), err)
	}
}

func TestComparePTS(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		r, d frame
		want int
	}{
		{frame{pts: 0, dur: 40 * ms}, frame{pts: 19 * ms, dur: 40 * ms}, 0},
		{frame{pts: 0, dur: 40 * ms}, frame{pts: 20 * ms, dur: 40 * ms}, -1},
		{frame{pts: 40 * ms, dur: 40 * ms}, frame{pts: 0, dur: 40 * ms}, 1},
		{frame{pts: 0, dur: 40 * ms}, frame{pts: 11 * ms, dur: 20 * ms}, -1}, // the shorter frame sets the tolerance
		{frame{pts: 5 * ms}, frame{pts: 5 * ms}, 0},                          // unknown durations: exact match
		{frame{pts: 5 * ms}, frame{pts: 6 * ms}, -1},
		{frame{pts: noPTS}, frame{pts: 6 * ms}, 0}, // no timestamp: order
	}
	for i, tc := range tests {
		if got := comparePTS(tc.r, tc.d); got != tc.want {
			t.Errorf("%d: comparePTS = %d, want %d", i, got, tc.want)
		}
	}
}
