package control

import (
	"bytes"
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
// repeated read costs only its reply.
type worstPNGs struct {
	mu    sync.Mutex
	png   map[worstPNGKey][]byte
	bytes int
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

// get returns the frame's image of the given kind as PNG, rendering and
// keeping it on first use.
func (c *worstPNGs) get(f WorstFrame, kind string, maxWidth int) ([]byte, error) {
	key := worstPNGKey{f.Record.Frame, f.RunningTimeNS, f.Record.Model, f.Record.Score, kind, maxWidth}
	c.mu.Lock()
	b, ok := c.png[key]
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	img, err := f.Image(kind, maxWidth)
	if err != nil {
		return nil, fmt.Errorf("control: frame %d %s image: %w", f.Record.Frame, kind, err)
	}
	var buf bytes.Buffer
	if err := worstPNGEncoder.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("control: encode frame %d %s image: %w", f.Record.Frame, kind, err)
	}
	b = buf.Bytes()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.png == nil || c.bytes+len(b) > worstPNGBytes {
		// Frames that left the worst set are never asked for again;
		// starting afresh drops them with the rest, and the frames still
		// asked for are rendered once more.
		c.png, c.bytes = make(map[worstPNGKey][]byte), 0
	}
	if _, ok := c.png[key]; !ok {
		c.png[key] = b
		c.bytes += len(b)
	}
	return b, nil
}
