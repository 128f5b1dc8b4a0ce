package control

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// worstFake is a fakeTarget that keeps worst frames with images of
// width×height, each filled with a colour that names the frame and image.
type worstFake struct {
	*fakeTarget
	frames        []WorstFrame
	kept          int
	width, height int
}

func (w *worstFake) WorstFrames(n int) WorstFrames {
	return WorstFrames{Frames: w.frames[:min(n, len(w.frames))], Kept: w.kept}
}

func newWorstFake(frames, kept, width, height int) *worstFake {
	w := &worstFake{fakeTarget: newFake(), kept: kept, width: width, height: height}
	for i := range frames {
		f := WorstFrame{Record: Record{Frame: int64(10 * i), PTS: -1, Model: "vmaf", Score: float64(20 + i)}, RunningTimeNS: int64(i) * 40e6}
		if i < kept {
			f.Width, f.Height = width, height
			f.Image = func(name string, maxWidth int) (image.Image, error) {
				ww, hh := width, height
				if maxWidth > 0 && maxWidth < ww {
					ww, hh = maxWidth, height*maxWidth/width
				}
				img := image.NewRGBA(image.Rect(0, 0, ww, hh))
				c := color.RGBA{uint8(i), uint8(len(name)), 0, 255}
				for p := 0; p < len(img.Pix); p += 4 {
					copy(img.Pix[p:], []byte{c.R, c.G, c.B, c.A})
				}
				return img, nil
			}
		}
		w.frames = append(w.frames, f)
	}
	return w
}

func startWorst(t *testing.T, target Target) *mcp.ClientSession {
	t.Helper()
	s, err := Start(filepath.Join(t.TempDir(), "vmaf.sock"), target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	cs, _ := connectTest(t, s, protocols[1])
	return cs
}

// pngBlocks decodes a reply's images, each with the label before it.
func pngBlocks(t *testing.T, res *mcp.CallToolResult) (labels []string, imgs []image.Image) {
	t.Helper()
	for i, c := range res.Content {
		ic, ok := c.(*mcp.ImageContent)
		if !ok {
			continue
		}
		if ic.MIMEType != "image/png" {
			t.Errorf("image %d: mime type %q", i, ic.MIMEType)
		}
		img, err := png.Decode(bytes.NewReader(ic.Data))
		if err != nil {
			t.Fatalf("image %d: %v", i, err)
		}
		label, ok := res.Content[i-1].(*mcp.TextContent)
		if !ok {
			t.Fatalf("image %d has no label before it", i)
		}
		labels, imgs = append(labels, label.Text), append(imgs, img)
	}
	return labels, imgs
}

func TestWorstFramesTool(t *testing.T) {
	cs := startWorst(t, newWorstFake(12, 8, 64, 36))
	for _, tc := range []struct {
		name           string
		args           map[string]any
		frames, images int
		kinds          []string
		width, height  int
	}{
		{"defaults", map[string]any{}, 8, 8, []string{ImageDistorted}, 64, 36},
		{"all", map[string]any{"n": 2, "images": "all"}, 2, 6, []string{ImageReference, ImageDistorted, ImageDifference}, 64, 36},
		{"none", map[string]any{"n": 12, "images": "none"}, 12, 0, nil, 0, 0},
		{"beyond the kept", map[string]any{"n": 12}, 12, 8, []string{ImageDistorted}, 64, 36},
		{"narrower", map[string]any{"n": 1, "max_width": 32}, 1, 1, []string{ImageDistorted}, 32, 18},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := callTool(t, cs, toolWorstFrames, tc.args)
			var reply WorstReply
			decode(t, res, &reply)
			if len(reply.Frames) != tc.frames || reply.Kept != 8 || reply.Heatmap == "" {
				t.Fatalf("%d frames, kept %d, heatmap %q; want %d, 8", len(reply.Frames), reply.Kept, reply.Heatmap, tc.frames)
			}
			labels, imgs := pngBlocks(t, res)
			if len(imgs) != tc.images {
				t.Fatalf("%d images, want %d", len(imgs), tc.images)
			}
			k := 0
			for i, f := range reply.Frames {
				if f.Frame != int64(10*i) || f.RunningTimeNS != int64(i)*40e6 {
					t.Errorf("frame %d: %+v", i, f)
				}
				if i >= 8 {
					if len(f.Images) > 0 || f.Width != 0 {
						t.Errorf("frame %d beyond the kept has images %v", f.Frame, f.Images)
					}
					continue
				}
				if strings.Join(f.Images, ",") != strings.Join(tc.kinds, ",") {
					t.Errorf("frame %d: images %v, want %v", f.Frame, f.Images, tc.kinds)
				}
				for _, kind := range f.Images {
					if want := fmt.Sprintf("frame %d %s ", f.Frame, kind); !strings.HasPrefix(labels[k], want) {
						t.Errorf("label %q, want it to start %q", labels[k], want)
					}
					b := imgs[k].Bounds()
					if b.Dx() != tc.width || b.Dy() != tc.height {
						t.Errorf("frame %d %s: %v, want %dx%d", f.Frame, kind, b, tc.width, tc.height)
					}
					if r, _, _, _ := imgs[k].At(0, 0).RGBA(); int(r>>8) != i {
						t.Errorf("image %d is not frame %d's", k, f.Frame)
					}
					k++
				}
			}
		})
	}
}

func TestWorstFramesToolErrors(t *testing.T) {
	cs := startWorst(t, newWorstFake(3, 3, 64, 36))
	for _, args := range []map[string]any{
		{"n": 33}, {"n": -1}, {"images": "some"}, {"max_width": 641}, {"max_width": -5},
	} {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: toolWorstFrames, Arguments: args})
		if err == nil && !res.IsError {
			t.Errorf("%v: accepted", args)
		}
	}
	// A target without worst frames says so.
	plain := startWorst(t, newFake())
	res := callTool(t, plain, toolWorstFrames, map[string]any{})
	if !res.IsError || !strings.Contains(resultText(res), "keeps no worst frames") {
		t.Errorf("target without worst frames: %s", resultText(res))
	}
}

// The reply stops attaching images at its size bound and says how many
// it left out.
func TestWorstFramesToolBound(t *testing.T) {
	w := newWorstFake(32, 32, 640, 360)
	for i := range w.frames {
		// Noise does not compress: 640x360 RGBA is ~900 KB of PNG.
		w.frames[i].Image = func(string, int) (image.Image, error) {
			img := image.NewRGBA(image.Rect(0, 0, 640, 360))
			x := uint32(i + 1)
			for p := range img.Pix {
				x ^= x << 13
				x ^= x >> 17
				x ^= x << 5
				img.Pix[p] = byte(x)
			}
			return img, nil
		}
	}
	cs := startWorst(t, w)
	// Reaching the bound means encoding 8 MiB of PNG, which takes seconds
	// under the race detector.
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: toolWorstFrames, Arguments: map[string]any{"n": 32, "images": "all"}})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", toolWorstFrames, err)
	}
	var reply WorstReply
	decode(t, res, &reply)
	_, imgs := pngBlocks(t, res)
	if reply.ImagesOmitted == 0 || len(imgs)+reply.ImagesOmitted != 96 {
		t.Errorf("%d images and %d omitted, want some omitted of 96", len(imgs), reply.ImagesOmitted)
	}
	size := 0
	for _, c := range res.Content {
		if ic, ok := c.(*mcp.ImageContent); ok {
			size += len(ic.Data)
		}
	}
	if size > maxWorstImageBytes+1<<20 {
		t.Errorf("%d bytes of images", size)
	}
}
