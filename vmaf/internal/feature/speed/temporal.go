package speed

import "github.com/vmafsink/vmafsink/vmaf/internal/feature"

// temporal is speed_temporal. libvmaf declares speed_max_val for it but
// does not clip its values, so the option only renames the output here too.
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
	t.out[0] = 0
	if !t.havePrev {
		toFloat(t.curRef, ref.Planes[0], t.w, t.h, t.scale)
		toFloat(t.curDis, dist.Planes[0], t.w, t.h, t.scale)
	} else {
		// The previous frame minus this one; in its debug mode libvmaf
		// takes the distorted difference against the current reference.
		diffFloat(t.diffRef, t.curRef, t.prevRef, ref.Planes[0], t.w, t.h, t.scale)
		if t.useRefDiff {
			toFloat(t.curDis, dist.Planes[0], t.w, t.h, t.scale)
			for i, v := range t.prevDis {
				t.diffDis[i] = v - t.curRef[i]
			}
		} else {
			diffFloat(t.diffDis, t.curDis, t.prevDis, dist.Planes[0], t.w, t.h, t.scale)
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

// diffFloat converts plane p into cur as toFloat does and writes
// prev − cur into diff, in one pass.
func diffFloat(diff, cur, prev []float32, p feature.Plane, w, h int, scale float32) {
	for y := 0; y < h; y++ {
		o := y * w
		c, d, q := cur[o:o+w], diff[o:o+w], prev[o:o+w]
		if p.BitDepth == 8 {
			for i, v := range p.Row8(y)[:w] {
				f := float32(v) - 128
				c[i] = f
				d[i] = q[i] - f
			}
			continue
		}
		for i, v := range p.Row16(y)[:w] {
			f := float32(v)/scale - 128
			c[i] = f
			d[i] = q[i] - f
		}
	}
}

func (t *temporal) Flush(feature.Emit) error { return nil }

func (t *temporal) Close() {}
