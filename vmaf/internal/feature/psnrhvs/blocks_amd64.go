//go:build amd64 && !purego

package psnrhvs

import (
	"github.com/vmafsink/vmafsink/vmaf/internal/cpu"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// lanes is how many blocks the AVX-512 kernel takes at once, side by
// side along a row of blocks.
const lanes = 16

// vecScratch is the kernel's working memory; blocks_amd64.s knows its
// layout.
type vecScratch struct {
	coef  [2][64][lanes]int32 // reference, distorted: samples, then coefficients
	tmp   [64][lanes]int32    // the transform's first pass
	masks [4][lanes]float32   // variance ratios, then masking strengths
	terms [64][lanes]float32  // error terms, coefficient by coefficient
}

// newVecScratch is the kernel's scratch when the process's CPU mask
// lets it run, else nil.
func newVecScratch() *vecScratch {
	if !cpu.Get().AVX512 {
		return nil
	}
	return new(vecScratch)
}

// blocks16 sets s.terms to the error terms of the 16 blocks whose
// top-left samples are src[0] (reference) and src[1] (distorted) and the
// next 15 at 7-sample steps (byte offsets idx), with bps (1 or 2) bytes
// per sample. It reads nothing outside the blocks.
//
//go:noescape
func blocks16(src *[2]*byte, stride *[2]int, bps int, idx *[16]int32, wt *weights, s *vecScratch)

var laneOffsets = func() (o [2][lanes]int32) {
	for b := range lanes {
		o[0][b] = int32(blockStep * b)
		o[1][b] = int32(2 * blockStep * b)
	}
	return o
}()

// planeError is planeError (the portable one) with the rows of blocks
// taken 16 at a time by blocks16; a row's last 16 may overlap the
// previous 16, whose terms are summed once. The terms are summed in
// the same order, so the result has the same bits.
func (v *vecScratch) planeError(ref, dist feature.Plane, w, h, depth int, wt *weights) float64 {
	nb := (w - 1) / blockStep
	if nb < lanes {
		return planeError(ref, dist, w, h, depth, wt)
	}
	bps, idx := 1, &laneOffsets[0]
	if depth > 8 {
		bps, idx = 2, &laneOffsets[1]
	}
	stride := [2]int{ref.Stride, dist.Stride}
	var sum float32
	n := 0
	for y := 0; y < h-7; y += blockStep {
		for done := 0; done < nb; {
			g := min(done, nb-lanes)
			x := g * blockStep
			// The blocks' last samples, which the plane's rows hold.
			end := (x + blockStep*(lanes-1) + blockSize) * bps
			_ = ref.Data[(y+7)*ref.Stride+end-1]
			_ = dist.Data[(y+7)*dist.Stride+end-1]
			src := [2]*byte{&ref.Data[y*ref.Stride+x*bps], &dist.Data[y*dist.Stride+x*bps]}
			blocks16(&src, &stride, bps, idx, wt, v)
			for b := done - g; b < lanes; b++ {
				for k := range 64 {
					sum += v.terms[k][b]
				}
			}
			n += 64 * (g + lanes - done)
			done = g + lanes
		}
	}
	return normalise(sum, n, depth)
}
