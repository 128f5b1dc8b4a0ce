package speed

import "github.com/vmafsink/vmafsink/vmaf/internal/feature"

// temporal is speed_temporal. libvmaf declares speed_max_val for it but
// does not clip its values, so the option only renames the output here too.
type temporal struct {
	eng        *engine
	w, h       int
	scale      float32
	useRefDiff bool
	// The previous frame's luma samples, as they came (rows of w), and
	// whether there is one yet.
	prevRef8, prevDis8   []byte
	prevRef16, prevDis16 []uint16
	havePrev             bool
	// The frame differences, and the rows of them SpEED reads. Without
	// prescaling (fuse), the blur takes the differences as it reads
	// them and the planes are not made.
	diffRef, diffDis []float32
	rows             []bool
	fuse             bool
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
	t := &temporal{eng: eng, w: f.Width, h: f.Height, scale: scale, useRefDiff: s.Bool(optUseRefDiff),
		rows: eng.rowsRead(), fuse: eng.scaler == nil}
	if !t.fuse {
		t.diffRef, t.diffDis = make([]float32, n), make([]float32, n)
	}
	if f.BitDepth == 8 {
		t.prevRef8, t.prevDis8 = make([]byte, n), make([]byte, n)
	} else {
		t.prevRef16, t.prevDis16 = make([]uint16, n), make([]uint16, n)
	}
	return t, nil
}

// Push emits each frame's value at once: it depends only on the frame
// and the one before. libvmaf reports 0 for the first frame, and so does
// this for the first frame it is given.
func (t *temporal) Push(index int, ref, dist *feature.Frame, emit feature.Emit) error {
	r, d := ref.Planes[0], dist.Planes[0]
	t.out[0] = 0
	if t.havePrev {
		// The previous frame minus this one; in its debug mode libvmaf
		// takes the distorted difference against the current reference.
		against := d
		if t.useRefDiff {
			against = r
		}
		var score float32
		if t.fuse {
			score, _ = t.eng.scoreSource(source{t.prevRef8, t.prevRef16, r, t.scale},
				source{t.prevDis8, t.prevDis16, against, t.scale})
		} else {
			for y, used := range t.rows {
				if used {
					t.diffRow(t.diffRef, t.prevRef8, t.prevRef16, r, y)
					t.diffRow(t.diffDis, t.prevDis8, t.prevDis16, against, y)
				}
			}
			score, _ = t.eng.score(t.diffRef, t.diffDis)
		}
		t.out[0] = float64(score)
	}
	t.keep(t.prevRef8, t.prevRef16, r)
	t.keep(t.prevDis8, t.prevDis16, d)
	t.havePrev = true
	emit(index, t.out[:])
	return nil
}

// diffRow writes row y of prev − cur, both converted as libvmaf's float
// extractors convert samples (scaled to the 8-bit range, minus 128). Both
// conversions and their difference are exact in float32, so the integer
// difference scaled by the (power of two) depth factor is the same value.
func (t *temporal) diffRow(dst []float32, prev8 []byte, prev16 []uint16, cur feature.Plane, y int) {
	o := y * t.w
	out := dst[o : o+t.w]
	vec := 0
	if t.eng.avx2 {
		vec = t.w &^ 7
	}
	if cur.BitDepth == 8 {
		c := cur.Row8(y)[:len(out)]
		p := prev8[o : o+len(c)]
		if vec > 0 {
			diff8AVX2(&out[0], &p[0], &c[0], vec)
		}
		for i := vec; i < len(c); i++ {
			out[i] = float32(int32(p[i]) - int32(c[i]))
		}
		return
	}
	c := cur.Row16(y)[:len(out)]
	p := prev16[o : o+len(c)]
	inv := 1 / t.scale
	if vec > 0 {
		diff16AVX2(&out[0], &p[0], &c[0], inv, vec)
	}
	for i := vec; i < len(c); i++ {
		out[i] = float32(int32(p[i])-int32(c[i])) * inv
	}
}

// keep copies the rows of a frame's luma that the next frame's
// difference reads.
func (t *temporal) keep(dst8 []byte, dst16 []uint16, p feature.Plane) {
	for y, used := range t.rows {
		if !used {
			continue
		}
		if p.BitDepth == 8 {
			copy(dst8[y*t.w:(y+1)*t.w], p.Row8(y))
		} else {
			copy(dst16[y*t.w:(y+1)*t.w], p.Row16(y))
		}
	}
}

func (t *temporal) Flush(feature.Emit) error { return nil }

func (t *temporal) Close() {}
