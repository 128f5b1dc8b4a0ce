package main

import (
	"fmt"
	"sync"

	"github.com/vmafsink/vmafsink/internal/framesize"
	"github.com/vmafsink/vmafsink/internal/y4m"
)

// defaultMCPMemoryMiB is `vmaf-score mcp`'s default --max-memory: the
// frames the calls running at once may hold, in MiB.
const defaultMCPMemoryMiB = 2048

// memoryBudget is what the scorings running may hold in frames: a call
// takes its share before it opens its inputs for reading and gives it back
// when it ends; a call that does not fit is refused as busy, one that
// could never fit with a reason.
type memoryBudget struct {
	mu    sync.Mutex
	limit int64
	used  int64
}

func (b *memoryBudget) take(n int64) (release func(), err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case n > b.limit:
		return nil, fmt.Errorf("the inputs' frames need %d MiB, more than the server's memory budget of %d MiB (vmaf-score mcp --max-memory); score smaller frames or fewer threads", mib(n), mib(b.limit))
	case b.used+n > b.limit:
		return nil, fmt.Errorf("busy: the scorings running hold %d of the %d MiB memory budget and this one needs %d (vmaf-score mcp --max-memory); call again when one has finished", mib(b.used), mib(b.limit), mib(n))
	}
	b.used += n
	return sync.OnceFunc(func() {
		b.mu.Lock()
		b.used -= n
		b.mu.Unlock()
	}), nil
}

func mib(n int64) int64 { return (n + 1<<20 - 1) >> 20 }

// frameMemory is what a call's inputs hold in frames: each input's frame
// size times the frames it keeps (those the engine has in flight and one
// being read, as score allocates them). It reads only a y4m's header,
// whose size was bounded there, and opens an FFmpeg input only as far as
// its stream parameters (the size bound applies there too, before any
// frame is decoded), counting the frames its reader decodes ahead as
// well. What a decoder keeps inside FFmpeg (its reference frames) is not
// counted.
func frameMemory(set *settings) (int64, error) {
	buffers := int64(enginePairs(set.threads) + 1)
	var total int64
	for _, in := range []struct {
		path   string
		isDist bool
	}{{set.ref, false}, {set.dist, true}} {
		if in.path == "" {
			continue // no reference: a no-reference model scores the distorted input alone
		}
		var n int
		kept := buffers
		switch set.kindOf(in.path, in.isDist) {
		case readY4M:
			f, err := openFile(in.path)
			if err != nil {
				return 0, err
			}
			r, err := y4m.NewReader(f)
			f.Close()
			if err != nil {
				return 0, fmt.Errorf("%s: %w", in.path, err)
			}
			n = r.Format().FrameSize()
		case readRaw:
			if err := framesize.Check(set.width, set.height); err != nil {
				return 0, fmt.Errorf("%s: raw input: %w", in.path, err)
			}
			n = y4m.Format{Width: set.width, Height: set.height, BitDepth: set.bitDepth, Chroma: set.pixFmt}.FrameSize()
		case readFFmpeg:
			src, err := set.openFFmpeg(in.path, in.isDist, 1)
			if err != nil {
				// Opening it to score fails the same way, and says
				// which input it was.
				continue
			}
			pf := src.format()
			src.close()
			n = y4m.Format{Width: pf.Width, Height: pf.Height, BitDepth: pf.BitDepth, Chroma: pf.Chroma.String()}.FrameSize()
			// The reader decodes two frames ahead (openFFmpeg), and a
			// frame may be held twice: as decoded, and converted to
			// the engine's format.
			kept = 2 * (buffers + 2)
		}
		total += int64(n) * kept
	}
	return total, nil
}
