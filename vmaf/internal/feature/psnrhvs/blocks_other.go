//go:build !amd64 || purego

package psnrhvs

import "github.com/vmafsink/vmafsink/vmaf/internal/feature"

// vecScratch stands for the vector kernel, which this build lacks.
type vecScratch struct{}

func newVecScratch() *vecScratch { return nil }

func (*vecScratch) planeError(ref, dist feature.Plane, w, h, depth int, wt *weights) float64 {
	return planeError(ref, dist, w, h, depth, wt)
}
