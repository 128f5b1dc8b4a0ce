//go:build libvmaf

package vmaf

func init() { goldenEngines = append(goldenEngines, "libvmaf") }
