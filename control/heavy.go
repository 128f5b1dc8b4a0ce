package control

import (
	"context"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Expensive reads (worst-frame images, long score ranges, diagnoses) take
// CPU and memory that scoring needs: four clients asking for every
// worst-frame image at once took scoring from 50 to 4 frames/s. They share
// one budget across all clients and transports:
//
//   - at most MaxHeavy run at once (default 2);
//   - together they use at most HeavyCPUShare of the machine's CPU time
//     (default 5%), counted as each read's own CPU time plus heavyByteCost
//     for each byte of its reply (encoding it, and base64 for images, costs
//     more than rendering it), with a burst of heavyBurst;
//   - a read that finds no room waits up to HeavyWait (default 250 ms),
//     which also slows a client that retries at once, and is then refused
//     as busy.
//
// Each runs on a thread of its own at nice 10, below the scoring workers'
// +5 (a third of their weight when both want the CPU), but not at the very
// lowest, where a machine busy with other work would starve it for
// minutes.

// heavyLast is the most records vmaf_score {last} returns as a light read.
const heavyLast = 100

// heavyNice is the nice value heavy reads run at.
const heavyNice = 10

// heavyBurst is how far ahead of its share the CPU budget may run: reads
// may start while the time they have used is paid back within this (at
// 5% of 2 CPUs, a burst of 1 CPU-second: a reply with every image of eight
// 720p frames rendered afresh, a few more once their images are cached
// (worst_png.go)). A client's occasional read is not held back, and a
// client told busy is told when to call again; a flood is held within a
// second, so scoring keeps its CPU from the start of an attack.
const heavyBurst = 10 * time.Second

// heavyByteCost is what a byte of a reply is charged: the SDK encodes it
// (JSON, base64 for images) and writes it at normal priority, after the
// read returns, and the garbage it leaves is collected by the process that
// scores. Encoding and decoding 8 MB of images in JSON measured 31 ns a
// byte; 40 covers the collection too. An estimate, not a bound.
const heavyByteCost = 40 * time.Nanosecond

// recordBytes is about what one record takes in a reply, for charging
// score lists.
const recordBytes = 512

// cpuBudget is a leaky bucket of CPU time: charges push clear (when the
// time used is paid back at the share) into the future.
type cpuBudget struct {
	mu    sync.Mutex
	share float64 // CPU-seconds per second
	clear time.Time
}

// wait is how long until a read may start.
func (b *cpuBudget) wait(now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.clear.After(now) {
		return 0
	}
	return max(b.clear.Sub(now)-heavyBurst, 0)
}

func (b *cpuBudget) charge(now time.Time, cpu time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.clear.Before(now) {
		b.clear = now
	}
	b.clear = b.clear.Add(time.Duration(float64(cpu) / b.share))
}

// heavy runs fn as one of the server's expensive reads, or refuses it as
// busy when the budget has no room for it within HeavyWait. fn runs on a
// low-priority thread and returns about how many bytes its reply has; heavy returns when fn does, or when ctx ends (fn,
// which sees ctx, then ends on its own and gives its place back).
func (s *Server) heavy(ctx context.Context, what string, fn func() int) error {
	wait := time.NewTimer(s.opts.HeavyWait)
	defer wait.Stop()
	select {
	case s.heavySlots <- struct{}{}:
	case <-wait.C:
		return Errorf(CodeBusy, "%d expensive reads (worst-frame images, score ranges, diagnoses) are running, the most the server runs at once for all clients; %s was not started: call again later", cap(s.heavySlots), what)
	case <-ctx.Done():
		return ctx.Err()
	}
	if d := s.heavyCPU.wait(time.Now()); d > 0 {
		select {
		case <-time.After(d):
		case <-wait.C:
			<-s.heavySlots
			return Errorf(CodeBusy, "expensive reads (worst-frame images, score ranges, diagnoses) have used their share of the CPU (%.0f%% for all clients); %s was not started: call again in %v",
				100*s.opts.HeavyCPUShare, what, d.Round(100*time.Millisecond))
		case <-ctx.Done():
			<-s.heavySlots
			return ctx.Err()
		}
	}
	done := make(chan struct{})
	go func() {
		defer func() { <-s.heavySlots }()
		defer close(done)
		lowPriority()
		t0 := threadCPU()
		n := fn()
		s.heavyCPU.charge(time.Now(), threadCPU()-t0+time.Duration(n)*heavyByteCost)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// lowPriority moves the calling goroutine to a thread of its own at
// heavyNice. The thread is never handed back: the goroutine ends
// locked to it, so Go ends the thread too, and no other goroutine ever
// runs at that priority. Raising a nice value needs no privilege; if it
// fails, the read runs at normal priority.
func lowPriority() {
	runtime.LockOSThread()
	unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), heavyNice)
}

// threadCPU is the CPU time the calling thread has used.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
