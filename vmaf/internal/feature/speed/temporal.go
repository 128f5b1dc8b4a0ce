package speed

import "github.com/vmafsink/vmafsink/vmaf/internal/feature"

type temporal struct {
	eng        *engine
	w, h       int
	scale      float32
	useRefDiff bool
	// The previous and current frames as floats; prev is false until a
	// frame has been seen.
	prevRef, prevDis []float32
	curRef, curDis   []float32
	diffRef, diffDis []float32
	havePrev         bool
	out              [1]float64
}

func newTemporal(f feature.Format, s feature.Settings) (feature.Sequential, error) {
	const name = "speed_temporal"
	scale, err := depthScale(name, f.BitDepth)
	if err != nil {
		return nil, err
	}
	p, err := readParams(name, s)
	if err != nil {
		return nil, err
	}
	eng, err := newEngine(name, f.Width, f.Height, p)
	if err != nil {
		return nil, err
	}
	n := f.Width * f.Height
	t := &temporal{eng: eng, w: f.Width, h: f.Height, scale: scale, useRefDiff: s.Bool(optUseRefDiff)}
	for _, b := range []*[]float32{&t.prevRef, &t.prevDis, &t.curRef, &t.curDis, &t.diffRef, &t.diffDis} {
		*b = make([]float32, n)
	}
	return t, nil
}

// Push emits each frame's value at once: it depends only on the frame
// and the one before. libvmaf reports 0 for the first frame, and so does
// this for the first frame it is given.
func (t *temporal) Push(index int, ref, dist *feature.Frame, emit feature.Emit) error {
	toFloat(t.curRef, ref.Planes[0], t.w, t.h, t.scale)
	toFloat(t.curDis, dist.Planes[0], t.w, t.h, t.scale)
	t.out[0] = 0
	if t.havePrev {
		// The previous frame minus this one; in its debug mode libvmaf
		// takes the distorted difference against the current reference.
		cur := t.curDis
		if t.useRefDiff {
			cur = t.curRef
		}
		for i, v := range t.prevRef {
			t.diffRef[i] = v - t.curRef[i]
			t.diffDis[i] = t.prevDis[i] - cur[i]
		}
		score, _ := t.eng.score(t.diffRef, t.diffDis)
		t.out[0] = float64(score)
	}
	t.prevRef, t.curRef = t.curRef, t.prevRef
	t.prevDis, t.curDis = t.curDis, t.prevDis
	t.havePrev = true
	emit(index, t.out[:])
	return nil
}

func (t *temporal) Flush(feature.Emit) error { return nil }

func (t *temporal) Close() {}
