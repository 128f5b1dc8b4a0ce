package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// synthClip builds a y4m stream whose every sample is distinct: sample x,y
// of plane p in frame f holds f*4096 + p*1024 + y*32 + x (low byte only
// when 8-bit). It returns the stream and the sample function.
func synthClip(w, h, cw, ch, depth, frames int, colorspace string) ([]byte, func(f, p, x, y int) int) {
	val := func(f, p, x, y int) int {
		v := f*4096 + p*1024 + y*32 + x
		if depth == 8 {
			return v & 0xff
		}
		return v & (1<<depth - 1)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "YUV4MPEG2 W%d H%d F25:1 Ip C%s\n", w, h, colorspace)
	for f := 0; f < frames; f++ {
		b.WriteString("FRAME\n")
		for p := 0; p < 3; p++ {
			pw, ph := w, h
			if p > 0 {
				pw, ph = cw, ch
			}
			for y := 0; y < ph; y++ {
				for x := 0; x < pw; x++ {
					v := val(f, p, x, y)
					if depth > 8 {
						b.WriteByte(byte(v))
						b.WriteByte(byte(v >> 8))
					} else {
						b.WriteByte(byte(v))
					}
				}
			}
		}
	}
	return b.Bytes(), val
}

func TestConvertClipLayout(t *testing.T) {
	tests := []struct {
		name           string
		w, h, cw, ch   int // y4m planes (chroma rounded up)
		lcw, lch       int // libvmaf's chroma planes (rounded down)
		depth          int
		colorspace     string
		chroma         string
		frames, maxOut int
	}{
		{"420 8-bit odd", 5, 3, 3, 2, 2, 1, 8, "420jpeg", "420", 2, 0},
		{"422 10-bit odd", 5, 3, 3, 3, 2, 3, 10, "422p10", "422", 2, 0},
		{"420 12-bit even", 4, 2, 2, 1, 2, 1, 12, "420p12", "420", 3, 0},
		{"444 8-bit odd", 3, 3, 3, 3, 3, 3, 8, "444", "444", 1, 0},
		{"frame limit", 5, 3, 3, 2, 2, 1, 8, "420", "420", 3, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clip, val := synthClip(tc.w, tc.h, tc.cw, tc.ch, tc.depth, tc.frames, tc.colorspace)
			var raw, y4mCopy bytes.Buffer
			g, err := convertClip(bytes.NewReader(clip), &raw, &y4mCopy, tc.maxOut)
			if err != nil {
				t.Fatal(err)
			}
			wantFrames := tc.frames
			if tc.maxOut > 0 {
				wantFrames = tc.maxOut
			}
			wantG := geometry{width: tc.w, height: tc.h, chroma: tc.chroma, bitDepth: tc.depth, frames: wantFrames}
			if g != wantG {
				t.Errorf("geometry %+v, want %+v", g, wantG)
			}

			var want bytes.Buffer
			for f := 0; f < wantFrames; f++ {
				for p := 0; p < 3; p++ {
					pw, ph := tc.w, tc.h
					if p > 0 {
						pw, ph = tc.lcw, tc.lch
					}
					for y := 0; y < ph; y++ {
						for x := 0; x < pw; x++ {
							v := val(f, p, x, y)
							want.WriteByte(byte(v))
							if tc.depth > 8 {
								want.WriteByte(byte(v >> 8))
							}
						}
					}
				}
			}
			if !bytes.Equal(raw.Bytes(), want.Bytes()) {
				t.Errorf("raw output (%d bytes) differs from libvmaf's layout (%d bytes)", raw.Len(), want.Len())
			}

			// The y4m copy holds the same frames in full.
			body := clip[bytes.IndexByte(clip, '\n')+1:]
			frameLen := len(body) / tc.frames
			copyBody := y4mCopy.Bytes()[bytes.IndexByte(y4mCopy.Bytes(), '\n')+1:]
			if !bytes.Equal(copyBody, body[:frameLen*wantFrames]) {
				t.Errorf("y4m copy differs from the input's first %d frames", wantFrames)
			}
			if hdr, _, _ := strings.Cut(y4mCopy.String(), "\n"); !strings.Contains(hdr, fmt.Sprintf("W%d H%d F25:1", tc.w, tc.h)) {
				t.Errorf("y4m copy header %q", hdr)
			}
		})
	}
}

func TestConvertClipRejects(t *testing.T) {
	tests := []struct{ name, clip string }{
		{"mono", "YUV4MPEG2 W2 H2 Cmono\nFRAME\n\x00\x00\x00\x00"},
		{"no frames", "YUV4MPEG2 W2 H2 C420jpeg\n"},
		{"truncated", "YUV4MPEG2 W2 H2 C420jpeg\nFRAME\n\x00\x00"},
		{"not y4m", "RIFF...."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var raw bytes.Buffer
			if _, err := convertClip(strings.NewReader(tc.clip), &raw, nil, 0); err == nil {
				t.Error("no error")
			}
		})
	}
}
