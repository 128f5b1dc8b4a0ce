//go:build linux

package testpic

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// threadCPU returns the calling thread's CPU time in nanoseconds.
func threadCPU(b *testing.B) int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		b.Fatalf("thread CPU clock: %v", err)
	}
	return ts.Nano()
}

// ReportThreadCPU pins the benchmark to its thread and, when the returned
// function runs after the timed loop, reports the thread's CPU time per
// operation: on a shared, loaded machine it varies far less than wall time.
func ReportThreadCPU(b *testing.B) func() {
	runtime.LockOSThread()
	start := threadCPU(b)
	return func() {
		b.ReportMetric(float64(threadCPU(b)-start)/float64(b.N), "cpu-ns/op")
		runtime.UnlockOSThread()
	}
}
