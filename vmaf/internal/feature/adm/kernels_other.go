//go:build !amd64 || purego

package adm

// admBestKernels returns the fastest kernel set this machine runs.
func admBestKernels() *admKernels { return &admScalarKernels }

// admKernelSets lists every kernel set this machine runs, for tests.
func admKernelSets() []*admKernels { return []*admKernels{&admScalarKernels} }

// admVecKernelSupport lists the vector kernel sets of this build: none.
func admVecKernelSupport() []admKernelSupport { return nil }
