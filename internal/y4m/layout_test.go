package y4m

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// storedFrame builds frame n of f as a stream in layout l stores it: every
// sample's value encodes its plane, row and column, so a misplaced sample
// shows. It also returns the Padded frame a reader must deliver.
func storedFrame(f Format, l Layout, n int) (stored []byte, want *Frame) {
	want = NewFrame(f)
	bps := f.BytesPerSample()
	sample := func(i, x, y int) int { return (n*7 + i*50 + y*9 + x) & 0xff }
	for i := 0; i < f.NumPlanes(); i++ {
		sw, sh := f.StoredPlaneSize(i, l)
		pw, ph := f.PlaneSize(i)
		rowBytes, _ := f.storedRows(i, l)
		for y := 0; y < sh; y++ {
			for x := 0; x < sw; x++ {
				stored = append(stored, byte(sample(i, x, y)))
				if bps == 2 {
					stored = append(stored, 1)
				}
			}
			// A ByteRounded row ends in the low byte of one more sample.
			for b := sw * bps; b < rowBytes; b++ {
				stored = append(stored, 0xee)
			}
		}
		for y := 0; y < ph; y++ {
			for x := 0; x < pw; x++ {
				v := sample(i, min(x, sw-1), min(y, sh-1))
				want.Planes[i][y*want.Strides[i]+x*bps] = byte(v)
				if bps == 2 {
					want.Planes[i][y*want.Strides[i]+x*bps+1] = 1
				}
			}
		}
	}
	return stored, want
}

func TestLayouts(t *testing.T) {
	formats := []struct {
		f      Format
		header string
	}{
		{Format{Width: 5, Height: 3, BitDepth: 8, Chroma: "420"}, "C420jpeg"},
		{Format{Width: 4, Height: 3, BitDepth: 12, Chroma: "420"}, "C420p12"},
		{Format{Width: 5, Height: 3, BitDepth: 10, Chroma: "422"}, "C422p10"},
		{Format{Width: 5, Height: 3, BitDepth: 8, Chroma: "444"}, "C444"},
		{Format{Width: 6, Height: 4, BitDepth: 8, Chroma: "420"}, "C420jpeg"},
		{Format{Width: 5, Height: 3, BitDepth: 12, Chroma: "420"}, "C420p12"},
		{Format{Width: 5, Height: 4, BitDepth: 16, Chroma: "422"}, "C422p16"},
	}
	for _, tf := range formats {
		for _, l := range []Layout{Padded, Truncated, ByteRounded} {
			for _, frames := range []int{1, 3} {
				name := fmt.Sprintf("%dx%d_%s_%d/%v/%dframes", tf.f.Width, tf.f.Height, tf.f.Chroma, tf.f.BitDepth, l, frames)
				t.Run(name, func(t *testing.T) { testLayout(t, tf.f, tf.header, l, frames) })
			}
		}
	}
}

func testLayout(t *testing.T, f Format, header string, l Layout, frames int) {
	var y4mStream, raw bytes.Buffer
	fmt.Fprintf(&y4mStream, "YUV4MPEG2 W%d H%d F25:1 Ip %s\n", f.Width, f.Height, header)
	var want []*Frame
	for n := 0; n < frames; n++ {
		stored, w := storedFrame(f, l, n)
		if n == 1 {
			y4mStream.WriteString("FRAME Ixyz\n") // frame parameters are skipped
		} else {
			y4mStream.WriteString("FRAME\n")
		}
		y4mStream.Write(stored)
		raw.Write(stored)
		want = append(want, w)
	}
	// Layouts that coincide for f read as the first of them.
	wantLayout := l
	for _, first := range []Layout{Padded, Truncated} {
		if first < l && f.StoredFrameSize(first) == f.StoredFrameSize(l) {
			wantLayout = first
			break
		}
	}

	yr, err := NewReader(&y4mStream)
	if err != nil {
		t.Fatal(err)
	}
	if yr.Layout() != wantLayout {
		t.Errorf("y4m: detected layout %v, want %v", yr.Layout(), wantLayout)
	}
	checkFrames(t, "y4m", yr, want)

	rr, err := NewRawReaderLayout(&raw, f, l)
	if err != nil {
		t.Fatal(err)
	}
	if got, wantBytes := rr.FrameBytes(), raw.Len()/frames; got != wantBytes {
		t.Errorf("raw: FrameBytes %d, want %d", got, wantBytes)
	}
	checkFrames(t, "raw", rr, want)
}

func checkFrames(t *testing.T, kind string, r *Reader, want []*Frame) {
	t.Helper()
	fr := NewFrame(r.Format())
	for n, w := range want {
		if err := r.ReadFrame(fr); err != nil {
			t.Fatalf("%s: frame %d: %v", kind, n, err)
		}
		for i := 0; i < r.Format().NumPlanes(); i++ {
			if !bytes.Equal(fr.Planes[i], w.Planes[i]) {
				t.Fatalf("%s: frame %d plane %d:\n got %v\nwant %v", kind, n, i, fr.Planes[i], w.Planes[i])
			}
		}
	}
	if err := r.ReadFrame(fr); err != io.EOF {
		t.Fatalf("%s: after the last frame: got %v, want io.EOF", kind, err)
	}
}

func TestStoredFrameSize(t *testing.T) {
	tests := []struct {
		f               Format
		padded, trunced int
	}{
		{Format{Width: 321, Height: 179, BitDepth: 8, Chroma: "420"}, 321*179 + 2*161*90, 321*179 + 2*160*89},
		{Format{Width: 177, Height: 161, BitDepth: 10, Chroma: "422"}, 2 * (177*161 + 2*89*161), 2 * (177*161 + 2*88*161)},
		{Format{Width: 177, Height: 161, BitDepth: 12, Chroma: "444"}, 2 * 3 * 177 * 161, 2 * 3 * 177 * 161},
		{Format{Width: 640, Height: 360, BitDepth: 8, Chroma: "420"}, 640 * 360 * 3 / 2, 640 * 360 * 3 / 2},
	}
	// FFmpeg 5.1's y4m muxer: chroma rows of ⌈2W/2⌉ bytes.
	if got, want := (Format{Width: 321, Height: 179, BitDepth: 10, Chroma: "420"}).StoredFrameSize(ByteRounded), 2*321*179+2*321*90; got != want {
		t.Errorf("byte-rounded 321x179 10-bit: %d, want %d", got, want)
	}
	for _, tc := range tests {
		if got := tc.f.StoredFrameSize(Padded); got != tc.padded {
			t.Errorf("%+v padded: %d, want %d", tc.f, got, tc.padded)
		}
		if got := tc.f.StoredFrameSize(Truncated); got != tc.trunced {
			t.Errorf("%+v truncated: %d, want %d", tc.f, got, tc.trunced)
		}
	}
}

// A large odd frame needs more than the reader's default buffer to find
// the second FRAME marker.
func TestDetectLayoutLargeFrame(t *testing.T) {
	f := Format{Width: 1281, Height: 719, BitDepth: 10, Chroma: "420"}
	var s bytes.Buffer
	fmt.Fprintf(&s, "YUV4MPEG2 W%d H%d C420p10\n", f.Width, f.Height)
	for n := 0; n < 2; n++ {
		s.WriteString("FRAME\n")
		s.Write(make([]byte, f.StoredFrameSize(Truncated)))
	}
	r, err := NewReader(&s)
	if err != nil {
		t.Fatal(err)
	}
	if r.Layout() != Truncated {
		t.Fatalf("layout %v, want truncated", r.Layout())
	}
	fr := NewFrame(f)
	for n := 0; n < 2; n++ {
		if err := r.ReadFrame(fr); err != nil {
			t.Fatalf("frame %d: %v", n, err)
		}
	}
}
