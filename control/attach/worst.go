package attach

import (
	"fmt"
	"image"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/pipeline"
)

// The worst frames are the Runner's (pipeline.Runner.Worst): it keeps the
// lowest-scoring records of the whole run, and the pictures of the first
// pipeline.Config.WorstFrames of them, which only it can copy while the
// frames are alive.

var _ control.WorstSource = (*Target)(nil)

// worstRecords returns up to n of the worst records, worst first.
func (t *Target) worstRecords(n int) []control.Record {
	ws := t.r.Worst(min(n, maxWorst))
	out := make([]control.Record, len(ws))
	for i, w := range ws {
		out[i] = convertRecord(w.Record)
	}
	return out
}

// WorstFrames implements control.WorstSource.
func (t *Target) WorstFrames(n int) control.WorstFrames {
	ws := t.r.Worst(n)
	out := control.WorstFrames{Frames: make([]control.WorstFrame, len(ws)), Kept: t.r.WorstFrames()}
	for i, w := range ws {
		f := control.WorstFrame{Record: convertRecord(w.Record), RunningTimeNS: -1}
		if rt := w.Record.Timing.RunningTime; rt != pipeline.NoTime {
			f.RunningTimeNS = int64(rt / time.Nanosecond)
		}
		if th := w.Images; th != nil {
			f.Width, f.Height = th.Width, th.Height
			f.Image = func(name string, maxWidth int) (image.Image, error) {
				k, err := imageKind(name)
				if err != nil {
					return nil, err
				}
				return th.Image(k, maxWidth)
			}
		}
		out.Frames[i] = f
	}
	return out
}

func imageKind(name string) (pipeline.ImageKind, error) {
	switch name {
	case control.ImageReference:
		return pipeline.ImageReference, nil
	case control.ImageDistorted:
		return pipeline.ImageDistorted, nil
	case control.ImageDifference:
		return pipeline.ImageDifference, nil
	}
	return 0, fmt.Errorf("attach: no image %q (want %s, %s or %s)", name, control.ImageReference, control.ImageDistorted, control.ImageDifference)
}
