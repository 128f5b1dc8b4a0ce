package attach

import (
	"os"
	"runtime"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/vmafsink/vmafsink/vmaf"
)

// spareOnce guards the process-wide changes this package makes.
var spareOnce sync.Once

// workerNiceEnv overrides how many nice steps (0 to 19) below the rest of
// the process the scoring workers run; 0 leaves them alone.
const workerNiceEnv = "VMAFSINK_WORKER_NICE"

// defaultWorkerNice puts the workers at the lowest priority. Measured on 2
// CPUs scoring 1080p flat out while a client polls vmaf_status every 2 ms,
// round-trip p99 over repeated runs: 5.3-10.3 ms with the workers at the
// process's priority, 4.2-9.6 ms at +10, 2.3-9.7 ms at +19 (under 5 ms in
// three runs of four). Frames scored per second: the same with a client
// polling every 100 ms (78), 4-7% fewer with one polling every 2 ms (57
// against 61), whose requests now run first. The price is paid when other
// threads of the same scheduling group keep every CPU busy: then those run
// first, and the workers score less (with two busy loops in the session,
// 31 frames/s at +0, 17 at +10, 12 at +19); in a live pipeline that is the
// measurement yielding to the encode it measures. On a Linux desktop or
// under systemd the group is the session or service (autogroup, cgroup),
// so other processes get no more of the CPU than before.
const defaultWorkerNice = 19

// workerNice is the nice increment backgroundThread applies.
var workerNice = defaultWorkerNice

// spareProcs is how many processors beyond the machine's CPUs the Go
// scheduler gets (see spareProc).
const spareProcs = 2

// spareProc gives the Go scheduler spareProcs more processors than the
// machine has CPUs (unless GOMAXPROCS was set explicitly). Go runs a
// goroutine the network wakes only when a processor is free or a running
// goroutine is preempted, which takes up to 10 ms; with every processor
// scoring, each hop of a control request would wait that long (measured:
// a vmaf_status round trip at 44 ms median while scoring 1080p on 2 CPUs,
// 1.1 ms with a spare processor). With processors spare, the operating
// system, which preempts in microseconds, shares the CPUs instead. One
// spare is not enough in the element: the collector, the publisher and
// every streaming thread's call into Go share it with the control plane
// (measured in gst-launch at 1080p on 2 CPUs, a client process polling
// every 2 ms: round-trip p99 17.7-19.7 ms with one spare, 7.0-7.6 ms with
// two; frames/s the same, 80, without the polling, 6% fewer with it).
//
// It also marks the native engine's workers as background work (see
// backgroundThread): with a spare processor, the threads that answer the
// socket still compete with the workers for the CPUs, and at equal
// priority a woken control thread waits behind them for a time slice or
// more at each hop.
func spareProc() {
	spareOnce.Do(func() {
		if v, err := strconv.Atoi(os.Getenv(workerNiceEnv)); err == nil {
			workerNice = min(max(v, 0), 19)
		}
		if workerNice > 0 {
			vmaf.SetWorkerSetup(backgroundThread)
		}
		if os.Getenv("GOMAXPROCS") != "" {
			return
		}
		if n := runtime.GOMAXPROCS(0); n <= runtime.NumCPU() {
			runtime.GOMAXPROCS(n + spareProcs)
		}
	})
}

// backgroundThread lowers the calling thread's priority workerNice steps
// and reports whether it did. On Linux the nice value belongs to the
// thread, and the engine calls this on a thread its worker keeps to itself
// while this returns true. The workers keep all the CPU nothing else
// wants; what changes is that the host's other threads (the control plane,
// GStreamer's streaming threads) run first when they wake. Raising a nice
// value needs no privilege; if it fails all the same, the worker scores at
// normal priority, as before.
//
// A worker that starts on a Go program's main thread lowers it too: left
// at normal priority, that worker would compete with the control plane
// as before (seen in a test binary, where one worker of two kept
// normal priority that way). Go
// parks the main thread for good when the worker ends, so the lowered
// priority stays with a thread that runs nothing more; ps and top, which
// show the main thread's nice value as the process's, show it too.
func backgroundThread() bool {
	tid := unix.Gettid()
	// The system call returns 20-nice, which x/sys passes on as is.
	prio, err := unix.Getpriority(unix.PRIO_PROCESS, tid)
	if err != nil {
		return false
	}
	nice := min(20-prio+workerNice, 19)
	return unix.Setpriority(unix.PRIO_PROCESS, tid, nice) == nil
}
