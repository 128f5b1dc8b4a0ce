package attach

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/vmafsink/vmafsink/internal/spareprocs"
)

// workerNiceEnv overrides how many nice steps (0 to 19) below the rest of
// the process the scoring workers run; 0 leaves them alone.
const workerNiceEnv = "VMAFSINK_WORKER_NICE"

// defaultWorkerNice lowers the workers by 5 steps: a third of a normal
// thread's weight. Measured on 2 CPUs scoring 1080p flat out while a
// client process polls vmaf_status every 2 ms, with two spare processors,
// round-trip p99 (in-process pipeline; the element in gst-launch): 4.1-6.2
// ms and 5.9-6.7 ms at +5, 4.9 ms and 6.4-6.7 ms at +19; with the workers
// at the process's priority and one spare processor, as before, 7.3-8.0 ms
// and 26-31 ms. +19 is no faster there but yields too much: when the host
// is busy besides scoring, a worker waits so long for the CPU that a
// streaming thread's push stalled up to 440 ms (TestMCPStalledClient's
// longest push; at most 38 ms at +0 and 11 ms at +5 in our runs), and
// other CPU-bound threads in the same session take nearly all the CPU
// (two busy loops: 31 frames/s at +0, 17 at +10, 12 at +19). Without a
// flood of requests, frames scored per second are unchanged (78 at +0 and
// +19 with a client polling every 100 ms). On a
// Linux desktop or under systemd the scheduling group is the session or
// service (autogroup, cgroup), so other processes get no more of the CPU
// than before.
const defaultWorkerNice = 5

// workerNice is the nice increment WorkerSetup's function applies:
// defaultWorkerNice, or workerNiceEnv's value clamped to 0..19.
func workerNice() int {
	if v, err := strconv.Atoi(os.Getenv(workerNiceEnv)); err == nil {
		return min(max(v, 0), 19)
	}
	return defaultWorkerNice
}

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
// GOMAXPROCS is the process's, so this is too; spareprocs.Reserve never
// lowers it, so every Start may ask.
func spareProc() { spareprocs.Reserve(spareProcs) }

// WorkerSetup returns the vmaf.Config.WorkerSetup for a measurement that
// serves a control plane, or nil when workerNiceEnv is 0. It marks the
// native engine's workers as background work (see backgroundThread): with
// a spare processor, the threads that answer the socket still compete with
// the workers for the CPUs, and at equal priority a woken control thread
// waits behind them for a time slice or more at each hop. It is per
// Context, so that scoring without a control plane in the same process
// (another element, say) keeps its priority.
func WorkerSetup() func() bool {
	nice := workerNice()
	if nice == 0 {
		return nil
	}
	return func() bool { return backgroundThread(nice) }
}

// backgroundThread lowers the calling thread's priority nice steps and
// reports whether it did. On Linux the nice value belongs to the
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
func backgroundThread(workerNice int) bool {
	tid := unix.Gettid()
	// The system call returns 20-nice, which x/sys passes on as is.
	prio, err := unix.Getpriority(unix.PRIO_PROCESS, tid)
	if err != nil {
		return false
	}
	nice := min(20-prio+workerNice, 19)
	return unix.Setpriority(unix.PRIO_PROCESS, tid, nice) == nil
}
