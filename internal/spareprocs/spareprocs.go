// Package spareprocs gives the Go scheduler processors beyond the
// machine's CPUs, for hosts whose scoring workers keep every CPU busy.
//
// Go runs a goroutine made runnable by the network, or a foreign thread
// entering Go (a GStreamer streaming thread), only when a processor is
// free or a running goroutine is preempted, which takes up to 10 ms. With
// processors spare, the operating system, which preempts in microseconds,
// shares the CPUs instead.
package spareprocs

import (
	"os"
	"runtime"
)

// Reserve raises GOMAXPROCS to the number of CPUs plus n, unless the
// GOMAXPROCS environment variable sets it or it is already that high.
// Callers with different needs each ask for theirs; the largest wins.
func Reserve(n int) {
	if os.Getenv("GOMAXPROCS") != "" {
		return
	}
	if want := runtime.NumCPU() + n; runtime.GOMAXPROCS(0) < want {
		runtime.GOMAXPROCS(want)
	}
}
