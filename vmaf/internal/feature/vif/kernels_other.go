//go:build !amd64 || purego

package vif

// vifBestKernels returns the fastest kernel set this machine runs.
func vifBestKernels() *vifKernels { return &vifScalarKernels }

// vifKernelSets lists every kernel set this machine runs, for tests.
func vifKernelSets() []*vifKernels { return []*vifKernels{&vifScalarKernels} }

// vifVecKernelSupport lists the vector kernel sets of this build: none.
func vifVecKernelSupport() []vifKernelSupport { return nil }
