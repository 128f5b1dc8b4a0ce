//go:build !amd64 || purego

package motion

// motionBestKernels returns the fastest kernel set this machine runs.
func motionBestKernels() *motionKernels { return &motionScalarKernels }

// motionKernelSets lists every kernel set this machine runs, for tests.
func motionKernelSets() []*motionKernels { return []*motionKernels{&motionScalarKernels} }

// motionVecKernelSupport lists the vector kernel sets of this build: none.
func motionVecKernelSupport() []motionKernelSupport { return nil }
