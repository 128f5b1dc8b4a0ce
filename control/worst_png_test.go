package control

import (
	"bytes"
	"errors"
	"image"
	"strings"
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

// Requests that miss the cache together render the image once: the first
// renders it, the others wait for that render and share its bytes.
func TestWorstPNGsConcurrentMiss(t *testing.T) {
	const requests = 8
	f := newWorstFake(1, 1, 64, 36).frames[0]
	render := f.Image
	started, release := make(chan struct{}, requests), make(chan struct{})
	var renders atomic.Int64
	f.Image = func(name string, maxWidth int) (image.Image, error) {
		renders.Add(1)
		started <- struct{}{}
		<-release
		return render(name, maxWidth)
	}
	waiting := make(chan struct{}, requests)
	c := &worstPNGs{onWait: func() { waiting <- struct{}{} }}
	type result struct {
		im  *worstPNG
		err error
	}
	results := make(chan result, requests)
	for range requests {
		go func() {
			im, err := c.get(t.Context(), f, "distorted", 0)
			results <- result{im, err}
		}()
	}
	// One request renders; every other one must come to wait for it
	// while the render is held, not start a render of its own.
	<-started
	for range requests - 1 {
		select {
		case <-waiting:
		case <-started:
			t.Fatalf("a second render started while the first was under way")
		}
	}
	close(release)
	var first *worstPNG
	for range requests {
		r := <-results
		if r.err != nil {
			t.Fatal(r.err)
		}
		if first == nil {
			first = r.im
		}
		if !bytes.Equal(r.im.data, first.data) || r.im.width != 64 || r.im.height != 36 {
			t.Errorf("a request got %d bytes %dx%d, want the shared %d bytes 64x36", len(r.im.data), r.im.width, r.im.height, len(first.data))
		}
	}
	if got := renders.Load(); got != 1 {
		t.Errorf("%d concurrent requests rendered %d times, want 1", requests, got)
	}
	// The waiters' image is the one kept: a later request renders nothing.
	if _, err := c.get(t.Context(), f, "distorted", 0); err != nil || renders.Load() != 1 {
		t.Errorf("a later request: %v, %d renders, want the kept image", err, renders.Load())
	}
}

// A render that fails is not kept: its waiters get the error, and the next
// request renders again.
func TestWorstPNGsRenderError(t *testing.T) {
	f := newWorstFake(1, 1, 16, 16).frames[0]
	render := f.Image
	fail := true
	f.Image = func(name string, maxWidth int) (image.Image, error) {
		if fail {
			return nil, errors.New("picture gone")
		}
		return render(name, maxWidth)
	}
	var c worstPNGs
	if _, err := c.get(t.Context(), f, "distorted", 0); err == nil || !strings.Contains(err.Error(), "picture gone") {
		t.Fatalf("failing render: %v, want its error", err)
	}
	fail = false
	if im, err := c.get(t.Context(), f, "distorted", 0); err != nil || im.width != 16 {
		t.Fatalf("after a failed render: %v, want the image rendered", err)
	}
}

// When the cache is full it starts afresh, but keeps the renders under
// way: their waiters and later requests still share them.
func TestWorstPNGsFullKeepsRendersUnderWay(t *testing.T) {
	frames := newWorstFake(2, 2, 16, 16).frames
	var c worstPNGs
	kept, err := c.get(t.Context(), frames[0], "distorted", 0)
	if err != nil {
		t.Fatal(err)
	}
	underWay := &worstPNG{ready: make(chan struct{})}
	c.png[worstPNGKey{frame: -1}] = underWay
	c.bytes = worstPNGBytes // full
	if _, err := c.get(t.Context(), frames[1], "distorted", 0); err != nil {
		t.Fatal(err)
	}
	if len(c.png) != 2 || c.png[worstPNGKey{frame: -1}] != underWay {
		t.Errorf("after starting afresh the cache holds %d images (render under way kept: %v), want it and the new image",
			len(c.png), c.png[worstPNGKey{frame: -1}] == underWay)
	}
	if c.bytes == worstPNGBytes || c.bytes <= 0 {
		t.Errorf("after starting afresh the cache counts %d bytes, want the new image's", c.bytes)
	}
	for _, e := range c.png {
		if e == kept {
			t.Error("a finished image outlived the fresh start")
		}
	}
}
