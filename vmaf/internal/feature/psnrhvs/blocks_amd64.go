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
// next 15 at 7-sample steps (byte offsets idx), with bps bytes per
// sample and sampleMask keeping a sample's bits of the 4 bytes read.
//
//go:noescape
func blocks16(src *[2]*byte, stride *[2]int, bps int, idx *[16]int32, wt *weights, s *vecScratch, sampleMask uint32)

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
	bps, sampleMask, idx := 1, uint32(0xff), &laneOffsets[0]
	if depth > 8 {
		bps, sampleMask, idx = 2, 0xffff, &laneOffsets[1]
	}
	stride := [2]int{ref.Stride, dist.Stride}
	var s, d block
	var t [64]float32
	var sum float32
	n := 0
	for y := 0; y < h-7; y += blockStep {
		for done := 0; done < nb; {
			g := min(done, nb-lanes)
			x := g * blockStep
			// The kernel reads 4 bytes from each sample's first byte.
			end := (x+blockStep*(lanes-1)+7)*bps + 4
			if (y+7)*ref.Stride+end <= len(ref.Data) && (y+7)*dist.Stride+end <= len(dist.Data) {
				src := [2]*byte{&ref.Data[y*ref.Stride+x*bps], &dist.Data[y*dist.Stride+x*bps]}
				blocks16(&src, &stride, bps, idx, wt, v, sampleMask)
			} else {
				for b := done - g; b < lanes; b++ {
					s.load(ref, x+blockStep*b, y)
					d.load(dist, x+blockStep*b, y)
					terms(&s, &d, wt, &t)
					for k, e := range t {
						v.terms[k][b] = e
					}
				}
			}
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
