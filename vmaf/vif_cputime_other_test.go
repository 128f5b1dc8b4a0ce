//go:build !linux

package vmaf

import "testing"

// reportThreadCPU reports nothing where there is no per-thread CPU clock.
func reportThreadCPU(*testing.B) func() { return func() {} }
