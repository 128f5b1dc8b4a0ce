package attach

import (
	"os"
	"runtime"
	"sync"
)

// spareOnce guards the one process-wide change this package makes.
var spareOnce sync.Once

// spareProc gives the Go scheduler one more processor than the machine has
// CPUs (unless GOMAXPROCS was set explicitly). Go runs a goroutine the
// network wakes only when a processor is free or a running goroutine is
// preempted, which takes up to 10 ms; with every processor scoring, each
// hop of a control request would wait that long (measured: a vmaf_status
// round trip at 44 ms median while scoring 1080p on 2 CPUs, 1.1 ms with a
// spare processor). With one processor spare, the operating system, which
// preempts in microseconds, shares the CPUs instead.
func spareProc() {
	spareOnce.Do(func() {
		if os.Getenv("GOMAXPROCS") != "" {
			return
		}
		if n := runtime.GOMAXPROCS(0); n <= runtime.NumCPU() {
			runtime.GOMAXPROCS(n + 1)
		}
	})
}
