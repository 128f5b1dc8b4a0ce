package y4m

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

func TestParseHeader(t *testing.T) {
	tests := []struct {
		header string
		want   Format
		bad    bool
	}{
		{"YUV4MPEG2 W576 H324 F25:1 Ip A1:1 C420jpeg", Format{576, 324, 8, "420", 25, 1}, false},
		{"YUV4MPEG2 W64 H32 C420p10 XYSCSS=420P10", Format{64, 32, 10, "420", 0, 0}, false},
		{"YUV4MPEG2 W64 H32 C422p12", Format{64, 32, 12, "422", 0, 0}, false},
		{"YUV4MPEG2 W64 H32 C444", Format{64, 32, 8, "444", 0, 0}, false},
		{"YUV4MPEG2 W64 H32 Cmono", Format{64, 32, 8, "400", 0, 0}, false},
		{"YUV4MPEG2 W64 H32", Format{64, 32, 8, "420", 0, 0}, false},
		{"YUV4MPEG2 W64 H32 C411", Format{}, true},
		{"YUV4MPEG2 W64 H32 C420p9", Format{}, true},
		{"YUV4MPEG2 H32", Format{}, true},
		{"RIFF W64 H32", Format{}, true},
	}
	for _, tc := range tests {
		got, err := parseHeader(tc.header)
		if tc.bad {
			if err == nil {
				t.Errorf("%q: want error, got %+v", tc.header, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v; want %+v", tc.header, got, err, tc.want)
		}
	}
}

func TestReadFrames(t *testing.T) {
	f := Format{Width: 4, Height: 2, BitDepth: 10, Chroma: "422"}
	frameBytes := f.FrameSize() // 4*2*2 + 2*(2*2*2) = 32
	var buf bytes.Buffer
	buf.WriteString("YUV4MPEG2 W4 H2 C422p10\n")
	for n := 0; n < 2; n++ {
		buf.WriteString("FRAME\n")
		for i := 0; i < frameBytes; i++ {
			buf.WriteByte(byte(n*100 + i))
		}
	}
	buf.WriteString("FRAME\n\x01") // truncated third frame
	r, err := NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if r.Format().FrameSize() != 32 {
		t.Fatalf("frame size %d, want 32", r.Format().FrameSize())
	}
	fr := NewFrame(r.Format())
	for n := 0; n < 2; n++ {
		if err := r.ReadFrame(fr); err != nil {
			t.Fatalf("frame %d: %v", n, err)
		}
		if fr.Planes[0][0] != byte(n*100) || fr.Planes[2][7] != byte(n*100+31) {
			t.Fatalf("frame %d: wrong bytes %v", n, fr.Planes)
		}
	}
	if err := r.ReadFrame(fr); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated frame: got %v, want unexpected EOF", err)
	}
}

func TestRawReader(t *testing.T) {
	f := Format{Width: 2, Height: 2, BitDepth: 8, Chroma: "420"}
	r, err := NewRawReader(bytes.NewReader(make([]byte, 2*f.FrameSize())), f)
	if err != nil {
		t.Fatal(err)
	}
	fr := NewFrame(f)
	for i := 0; i < 2; i++ {
		if err := r.ReadFrame(fr); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.ReadFrame(fr); err != io.EOF {
		t.Fatalf("got %v, want io.EOF", err)
	}
}

func TestReadFrameNoAllocs(t *testing.T) {
	f := Format{Width: 16, Height: 16, BitDepth: 8, Chroma: "420"}
	var buf bytes.Buffer
	buf.WriteString("YUV4MPEG2 W16 H16 C420\n")
	for i := 0; i < 200; i++ {
		buf.WriteString("FRAME\n")
		buf.Write(make([]byte, f.FrameSize()))
	}
	r, err := NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	fr := NewFrame(r.Format())
	if n := testing.AllocsPerRun(100, func() {
		if err := r.ReadFrame(fr); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("ReadFrame allocates %v times per frame", n)
	}
}
