package vmaf

// vifBestKernels returns the fastest kernel set this machine runs.
func vifBestKernels() *vifKernels { return &vifScalarKernels }
