package control

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"sync"
)

// worstPNGBytes bounds what the worst-frame PNG cache holds: the images of
// three full replies.
const worstPNGBytes = 3 * maxWorstImageBytes

// worstPNGEncoder compresses for speed: at the default level a 640-wide
// frame takes about five times the CPU for a quarter fewer bytes, and
// rendering is what the expensive-read budget pays for.
var worstPNGEncoder = png.Encoder{CompressionLevel: png.BestSpeed}

// worstPNGs keeps the PNGs rendered for earlier vmaf_worst_frames replies.
// A worst frame's pictures never change once kept, and clients ask for the
// same few frames again and again (an agent polling, several agents at
// once, a flood): each image is then rendered and compressed once, and a
// repeated read costs only its reply. Requests that miss together wait for
// the first one's render rather than rendering the image again.
type worstPNGs struct {
	mu    sync.Mutex
	png   map[worstPNGKey]*worstPNG
	bytes int // of the finished images in png

	// onWait, when set, is called as a request starts waiting for another
	// request's render of the same image.
	onWait func()
}

// worstPNGKey names one rendered image. A frame is known by its index,
// running time, model and score together, so a frame index reused by a
// new run (the server outlives a restart of the measurement) with other
// pictures is not mistaken for the old one.
type worstPNGKey struct {
	frame, runningTime int64
	model              string
	score              float64
	kind               string
	maxWidth           int
}

// worstPNG is one image: being rendered until ready is closed, then its
// PNG and size, or the error that rendering it met.
type worstPNG struct {
	ready         chan struct{}
	done          bool // under worstPNGs.mu; ready is closed after
	data          []byte
	width, height int
	err           error
}

// get returns the frame's image of the given kind as PNG with its size,
// rendering and keeping it on first use. A request that finds the image
// being rendered waits for that render, or for ctx.
func (c *worstPNGs) get(ctx context.Context, f WorstFrame, kind string, maxWidth int) (*worstPNG, error) {
	key := worstPNGKey{f.Record.Frame, f.RunningTimeNS, f.Record.Model, f.Record.Score, kind, maxWidth}
	c.mu.Lock()
	e, ok := c.png[key]
	if !ok {
		if c.png == nil {
			c.png = make(map[worstPNGKey]*worstPNG)
		}
		e = &worstPNG{ready: make(chan struct{})}
		c.png[key] = e
	}
	onWait := c.onWait
	c.mu.Unlock()
	if ok {
		if onWait != nil {
			onWait()
		}
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if e.err != nil {
			return nil, e.err
		}
		return e, nil
	}
	data, width, height, err := renderWorstPNG(f, kind, maxWidth)
	c.mu.Lock()
	defer c.mu.Unlock()
	defer close(e.ready)
	e.data, e.width, e.height, e.err, e.done = data, width, height, err, true
	if err != nil {
		// Not kept: a later request tries again.
		delete(c.png, key)
		return nil, err
	}
	if c.bytes+len(data) > worstPNGBytes {
		// Frames that left the worst set are never asked for again;
		// starting afresh drops them with the rest, and the frames still
		// asked for are rendered once more. Renders under way stay, so
		// that their waiters and later requests share them.
		kept := make(map[worstPNGKey]*worstPNG)
		for k, o := range c.png {
			if !o.done {
				kept[k] = o
			}
		}
		c.png, c.bytes = kept, 0
	}
	c.png[key] = e
	c.bytes += len(data)
	return e, nil
}

// renderWorstPNG draws the frame's image and compresses it.
func renderWorstPNG(f WorstFrame, kind string, maxWidth int) (data []byte, width, height int, err error) {
	img, err := f.Image(kind, maxWidth)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("control: frame %d %s image: %w", f.Record.Frame, kind, err)
	}
	var buf bytes.Buffer
	if err := worstPNGEncoder.Encode(&buf, img); err != nil {
		return nil, 0, 0, fmt.Errorf("control: encode frame %d %s image: %w", f.Record.Frame, kind, err)
	}
	return buf.Bytes(), img.Bounds().Dx(), img.Bounds().Dy(), nil
}
