package control

import (
	"context"
	"runtime"

	"golang.org/x/sys/unix"
)

// Expensive reads (worst-frame images, long score ranges, diagnoses) take
// CPU and memory that scoring needs: four clients asking for every
// worst-frame image at once took scoring from 50 to 4 frames/s. They share
// one budget across all clients and transports, MaxHeavy at once (default
// 2); one more is refused as busy at once, so a client knows to retry
// rather than pile up behind the others. Each runs on a thread of its own
// at the lowest priority (nice 19, below the scoring workers' +5), so that
// what CPU scoring leaves is what it gets.

// heavyLast is the most records vmaf_score {last} returns as a light read.
const heavyLast = 100

// heavyNice is the nice value heavy reads run at: the lowest priority.
const heavyNice = 19

// heavy runs fn as one of the server's expensive reads, or refuses it as
// busy when MaxHeavy are running. fn runs on a low-priority thread; heavy
// returns when fn does, or when ctx ends (fn, which sees ctx, then ends on
// its own and gives its place back).
func (s *Server) heavy(ctx context.Context, what string, fn func()) error {
	select {
	case s.heavySlots <- struct{}{}:
	default:
		return Errorf(CodeBusy, "%d expensive reads (worst-frame images, score ranges, diagnoses) are running, the most the server runs at once for all clients; %s was not started: call again when one has finished", cap(s.heavySlots), what)
	}
	done := make(chan struct{})
	go func() {
		defer func() { <-s.heavySlots }()
		defer close(done)
		lowPriority()
		fn()
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// lowPriority moves the calling goroutine to a thread of its own at the
// lowest priority. The thread is never handed back: the goroutine ends
// locked to it, so Go ends the thread too, and no other goroutine ever
// runs at that priority. Raising a nice value needs no privilege; if it
// fails, the read runs at normal priority.
func lowPriority() {
	runtime.LockOSThread()
	unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), heavyNice)
}
