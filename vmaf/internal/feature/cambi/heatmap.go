package cambi

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"
)

// heatmaps writes the distorted picture's responses, one raw file of
// little-endian 16-bit samples per scale, named and laid out as
// libvmaf's heatmaps_path does: frame index's picture at offset
// index·w·h·2, responses scaled so that the largest possible one maps
// to 65535. The names carry enc_width x enc_height halved per scale.
type heatmaps struct {
	files [numScales]*sharedFile
	buf   []byte
}

// sharedFile lets every instance of one stream write into the same
// files: the first to open a path truncates it, as libvmaf's single
// instance does at init, and the last to close it closes it. Instances
// write distinct frames, at distinct offsets.
type sharedFile struct {
	f    *os.File
	refs int
}

var (
	openMu    sync.Mutex
	openFiles = map[string]*sharedFile{}
)

func openHeatmaps(dir string, w, h int, maxW, maxH int) (*heatmaps, error) {
	if err := os.MkdirAll(dir, 0o770); err != nil {
		return nil, fmt.Errorf("feature cambi: option heatmaps_path: %w", err)
	}
	hm := &heatmaps{buf: make([]byte, 2*maxW*maxH)}
	openMu.Lock()
	defer openMu.Unlock()
	for scale := range numScales {
		name := filepath.Join(dir, fmt.Sprintf("cambi_heatmap_scale_%d_%dx%d_16b.gray", scale, w, h))
		sf := openFiles[name]
		if sf == nil {
			f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
			if err != nil {
				hm.closeLocked()
				return nil, fmt.Errorf("feature cambi: option heatmaps_path: %w", err)
			}
			sf = &sharedFile{f: f}
			openFiles[name] = sf
		}
		sf.refs++
		hm.files[scale] = sf
		w, h = (w+1)>>1, (h+1)>>1
	}
	return hm, nil
}

// write stores one scale's responses c (w x h) of frame index.
func (hm *heatmaps) write(scale, index int, c []float32, w, h, window int, cfg *config) error {
	maxWeight := cfg.weights[0]
	for _, wt := range cfg.weights[:cfg.numDiffs] {
		maxWeight = max(maxWeight, wt)
	}
	maxC := maxWeight * window * window / 4
	scaling := float64(math.MaxUint16) / float64(maxC)
	out := hm.buf[:2*w*h]
	for i, v := range c[:w*h] {
		// Truncated as C converts to an integer; the low 16 bits kept.
		binary.LittleEndian.PutUint16(out[2*i:], uint16(int64(scaling*float64(v))))
	}
	if _, err := hm.files[scale].f.WriteAt(out, int64(index)*int64(len(out))); err != nil {
		return fmt.Errorf("feature cambi: option heatmaps_path: %w", err)
	}
	return nil
}

func (hm *heatmaps) close() {
	openMu.Lock()
	defer openMu.Unlock()
	hm.closeLocked()
}

func (hm *heatmaps) closeLocked() {
	for scale, sf := range hm.files {
		if sf == nil {
			continue
		}
		if sf.refs--; sf.refs == 0 {
			sf.f.Close()
			for name, other := range openFiles {
				if other == sf {
					delete(openFiles, name)
				}
			}
		}
		hm.files[scale] = nil
	}
}
