//go:build !linux

package testpic

import "testing"

// ReportThreadCPU reports nothing where there is no per-thread CPU clock.
func ReportThreadCPU(*testing.B) func() { return func() {} }
