package y4m

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestSkipFrames skips into seekable and unseekable Y4M and raw streams,
// and into a Y4M stream whose frames carry parameters (marker lines of
// different lengths), and checks the frames after are the right ones.
func TestSkipFrames(t *testing.T) {
	f := Format{Width: 9, Height: 5, BitDepth: 8, Chroma: "420"}
	const frames = 7
	var y4mData, rawData, paramData bytes.Buffer
	y4mData.WriteString("YUV4MPEG2 W9 H5 F25:1 C420jpeg\n")
	paramData.WriteString("YUV4MPEG2 W9 H5 F25:1 C420jpeg\n")
	var want []*Frame
	for n := range frames {
		stored, w := storedFrame(f, Padded, n)
		want = append(want, w)
		y4mData.WriteString("FRAME\n")
		y4mData.Write(stored)
		rawData.Write(stored)
		if n == 4 {
			paramData.WriteString("FRAME Ixyz\n")
		} else {
			paramData.WriteString("FRAME\n")
		}
		paramData.Write(stored)
	}
	dir := t.TempDir()
	open := func(name string, data []byte, seekable, raw bool) *Reader {
		var src io.Reader = bytes.NewReader(data)
		if seekable {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			fh, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { fh.Close() })
			src = fh
		} else {
			src = struct{ io.Reader }{src} // hides Seek
		}
		var r *Reader
		var err error
		if raw {
			r, err = NewRawReader(src, f)
		} else {
			r, err = NewReader(src)
		}
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, c := range []struct {
		name     string
		data     []byte
		seekable bool
		raw      bool
	}{
		{"y4m file", y4mData.Bytes(), true, false},
		{"y4m pipe", y4mData.Bytes(), false, false},
		{"raw file", rawData.Bytes(), true, true},
		{"raw pipe", rawData.Bytes(), false, true},
		{"y4m with frame parameters", paramData.Bytes(), true, false},
	} {
		for _, steps := range [][]int{{3}, {0, 2, 1}, {6}, {1, 1}} {
			r := open(c.name, c.data, c.seekable, c.raw)
			fr := NewFrame(f)
			at := 0
			for _, n := range steps {
				if err := r.SkipFrames(n); err != nil {
					t.Fatalf("%s: skip %d at %d: %v", c.name, n, at, err)
				}
				at += n
				if at == frames {
					break
				}
				if err := r.ReadFrame(fr); err != nil {
					t.Fatalf("%s: frame %d after skipping: %v", c.name, at, err)
				}
				if !bytes.Equal(fr.Planes[0], want[at].Planes[0]) || !bytes.Equal(fr.Planes[2], want[at].Planes[2]) {
					t.Fatalf("%s: skipped to frame %d, read another", c.name, at)
				}
				at++
			}
		}
		r := open(c.name, c.data, c.seekable, c.raw)
		if err := r.SkipFrames(frames + 1); err != io.EOF {
			t.Errorf("%s: skipping past the end: %v, want io.EOF", c.name, err)
		}
	}
}
