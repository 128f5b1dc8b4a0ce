package floatmotion

import "github.com/vmafsink/vmafsink/vmaf/internal/feature"

// motion keeps the blurred reference planes of the last two frames.
// A frame's motion is final when the frame arrives; its motion2 (the
// smaller of its motion and the next frame's) and motion3 one frame
// later, so each frame is emitted when the next is pushed, and the last
// by Flush.
type motion struct {
	config
	planes int         // 1, or 3 with motion_add_uv
	ring   [2][3]plane // ring[n%2][plane] is frame n's blur
	half   [2][3]plane // their bilinear halves, for motion_add_scale1
	rows   *rows
	diffs  [3]float32 // each plane's mean absolute difference from the frame before

	frames  int     // frames pushed
	last    int     // index of the pending frame
	score   float64 // the pending frame's raw motion
	scratch [3]float64
}

func newSequential(f feature.Format, s feature.Settings) (feature.Sequential, error) {
	c, err := readConfig(f, s)
	if err != nil {
		return nil, err
	}
	m := &motion{config: c, planes: 1}
	if c.forceZero {
		return m, nil
	}
	if c.addUV {
		m.planes = 3
	}
	widest := 0
	for p := range m.planes {
		w, h := f.PlaneSize(p)
		widest = max(widest, w)
		for n := range m.ring {
			m.ring[n][p] = newPlane(w, h)
			if c.addScale1 {
				m.half[n][p] = newPlane(int(float64(w)*0.5+0.5), int(float64(h)*0.5+0.5))
			}
		}
	}
	m.rows = newRows(widest, len(c.filter)/2)
	return m, nil
}

func (m *motion) Close() {}

// capped is a score weighted for the frame rate and capped, as libvmaf
// reports motion and motion2.
func (m *motion) capped(score float64) float64 {
	return minOf(float64(score*m.fpsWeight), m.maxVal)
}

// blended is motion3: the weighted score blended towards the offset and
// capped.
func (m *motion) blended(score float64) float64 {
	s := float64(score * m.fpsWeight)
	b := float64(s*m.blendFactor) + float64((1-m.blendFactor)*minOf(m.blendOffset, s))
	return minOf(b, m.maxVal)
}

// minOf is libvmaf's MIN macro, whose NaN behaviour differs from math.Min.
func minOf(a, b float64) float64 {
	if a < b {
		return a
	}
	return b
}

func (m *motion) emit(emit feature.Emit, index int, motion, motion2, motion3 float64) {
	out := append(m.scratch[:0], motion2)
	if m.debug {
		out = append(out, motion)
	}
	emit(index, append(out, motion3))
}

func (m *motion) Push(index int, ref, _ *feature.Frame, emit feature.Emit) error {
	if m.forceZero {
		m.emit(emit, index, 0, 0, 0)
		return nil
	}
	n := m.frames
	cur := &m.ring[n%2]
	for p := range m.planes {
		src := newPlaneSource(ref.Planes[p], m.rows.avx2)
		var prev *plane
		if n > 0 {
			prev = &m.ring[(n-1)%2][p]
		}
		m.diffs[p] = m.rows.blur(src.row, cur[p], m.filter, prev)
		if m.addScale1 {
			scaleBilinear(cur[p], m.half[n%2][p])
		}
	}
	m.frames++
	if n == 0 {
		m.last = index
		return nil
	}
	score := m.difference((n-1)%2, n%2)
	if n == 1 {
		// libvmaf gives the first frame motion and motion2 of 0 but
		// blends the second frame's motion into its motion3.
		m.emit(emit, m.last, 0, 0, m.blended(score))
	} else {
		s2 := minOf(m.score, score)
		m.emit(emit, m.last, m.capped(m.score), m.capped(s2), m.blended(s2))
	}
	m.last, m.score = index, score
	return nil
}

func (m *motion) Flush(emit feature.Emit) error {
	switch {
	case m.forceZero || m.frames == 0:
	case m.frames == 1:
		m.emit(emit, m.last, 0, 0, 0)
	default:
		m.emit(emit, m.last, m.capped(m.score), m.capped(m.score), m.blended(m.score))
	}
	m.frames = 0
	return nil
}

// difference is the raw motion between two blurred frames of the ring,
// the last two: the luma's mean absolute difference, plus the chroma's
// with motion_add_uv, summed in float64 as libvmaf does. The whole
// planes' differences are the ones the blur took.
func (m *motion) difference(a, b int) float64 {
	var score float64
	for p := range m.planes {
		d := m.diffs[p]
		if m.addScale1 {
			d += meanAbsDiff(m.half[a][p], m.half[b][p], m.rows.avx2)
		}
		score += float64(d)
	}
	return score
}
