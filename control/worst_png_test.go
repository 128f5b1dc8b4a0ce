package control

import (
	"bytes"
	"image"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A worst frame's image is rendered once however often it is asked for;
// a frame index that comes back with another score is another picture.
func TestWorstPNGsRenderOnce(t *testing.T) {
	w := newWorstFake(4, 4, 64, 36)
	var renders atomic.Int64
	for i := range w.frames {
		render := w.frames[i].Image
		w.frames[i].Image = func(name string, maxWidth int) (image.Image, error) {
			renders.Add(1)
			return render(name, maxWidth)
		}
	}
	cs := startWorst(t, w)
	args := map[string]any{"n": 4, "images": "all"}
	first := callTool(t, cs, toolWorstFrames, args)
	if got := renders.Load(); got != 12 {
		t.Fatalf("first reply rendered %d images, want 12", got)
	}
	for range 3 {
		again := callTool(t, cs, toolWorstFrames, args)
		if !sameImages(first, again) {
			t.Fatal("a repeated reply's images differ from the first's")
		}
	}
	if got := renders.Load(); got != 12 {
		t.Errorf("four replies rendered %d images, want 12", got)
	}
	callTool(t, cs, toolWorstFrames, map[string]any{"n": 1, "max_width": 32})
	if got := renders.Load(); got != 13 {
		t.Errorf("a narrower image: %d renders, want 13", got)
	}
	w.frames[0].Record.Score++
	callTool(t, cs, toolWorstFrames, map[string]any{"n": 1})
	if got := renders.Load(); got != 14 {
		t.Errorf("frame 0 with a new score: %d renders, want 14", got)
	}
}

// sameImages reports whether two replies carry the same image bytes in
// the same order.
func sameImages(a, b *mcp.CallToolResult) bool {
	var ia, ib [][]byte
	for _, c := range a.Content {
		if im, ok := c.(*mcp.ImageContent); ok {
			ia = append(ia, im.Data)
		}
	}
	for _, c := range b.Content {
		if im, ok := c.(*mcp.ImageContent); ok {
			ib = append(ib, im.Data)
		}
	}
	if len(ia) != len(ib) || len(ia) == 0 {
		return false
	}
	for i := range ia {
		if !bytes.Equal(ia[i], ib[i]) {
			return false
		}
	}
	return true
}
