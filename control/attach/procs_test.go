package attach

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/vmafsink/vmafsink/vmaf"
)

// readNice reads a thread's nice value from /proc (field 19 of stat,
// counted after the parenthesised command name, which may hold spaces);
// ok is false once the thread has gone.
func readNice(tid int) (nice int, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/stat", tid))
	if err != nil {
		return 0, false
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 17 {
		return 0, false
	}
	n, err := strconv.Atoi(fields[16])
	return n, err == nil
}

// threadNice is readNice for a thread that must exist.
func threadNice(t *testing.T, tid int) int {
	t.Helper()
	n, ok := readNice(tid)
	if !ok {
		t.Fatalf("no nice value for thread %d", tid)
	}
	return n
}

func TestBackgroundThreadLowersOnlyItsThread(t *testing.T) {
	type seen struct {
		lowered       bool
		before, after int
		read          bool // both nice values were read
	}
	got := make(chan seen)
	go func() {
		// Never unlocked: the thread ends (or, if it is the main thread,
		// is parked) with this goroutine, so the lowered priority does not
		// reach the rest of the test binary.
		runtime.LockOSThread()
		tid := unix.Gettid()
		var s seen
		var ok1, ok2 bool
		s.before, ok1 = readNice(tid)
		s.lowered = backgroundThread(defaultWorkerNice)
		s.after, ok2 = readNice(tid)
		s.read = ok1 && ok2
		got <- s
	}()
	s := <-got
	if !s.read {
		t.Fatal("no nice value for the locked thread")
	}
	if want := min(s.before+defaultWorkerNice, 19); !s.lowered || s.after != want {
		t.Errorf("thread at nice %d: %d after backgroundThread (reported %v), want %d", s.before, s.after, s.lowered, want)
	}
	// This goroutine's thread is not the one lowered (that one is locked
	// to the goroutine above).
	if got := threadNice(t, unix.Gettid()); got != s.before {
		t.Errorf("another thread's nice went from %d to %d", s.before, got)
	}
}

// TestWorkerSetupMarksWorkersBackground: with WorkerSetup's function the
// native engine's workers run at the lowered priority, and the goroutine
// delivering results does not.
func TestWorkerSetupMarksWorkersBackground(t *testing.T) {
	setup := WorkerSetup()
	workerNice := workerNice()
	if setup == nil {
		t.Skip(workerNiceEnv + "=0 leaves the workers alone")
	}
	base := threadNice(t, unix.Gettid())
	m, err := vmaf.BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		t.Fatal(err)
	}
	const threads = 3
	// Threads lowered before scoring (one parked by an earlier test, say)
	// are not the workers.
	lowSet := func() (map[string]bool, error) {
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return nil, err
		}
		set := map[string]bool{}
		for _, d := range tasks {
			tid, _ := strconv.Atoi(d.Name())
			if n, ok := readNice(tid); ok && n == min(base+workerNice, 19) {
				set[d.Name()] = true
			}
		}
		return set, nil
	}
	before, err := lowSet()
	if err != nil {
		t.Fatal(err)
	}
	// Each worker reports once its setup has run; the check waits for all
	// of them (a worker scheduled late may start after every frame is
	// scored) while they are still alive, before Flush ends them.
	setUp := make(chan struct{}, threads)
	wrapped := func() bool {
		ok := setup()
		setUp <- struct{}{}
		return ok
	}
	// The result callback runs on the engine's goroutine, where a failure
	// must not end the goroutine (t.Fatal would): it is kept for the test's.
	var deliverer []int
	var deliverErr error
	ctx, err := vmaf.NewContext(vmaf.Config{Models: []*vmaf.Model{m}, Engine: "native", Threads: threads, WorkerSetup: wrapped,
		OnResult: func(*vmaf.Result) {
			if nice, ok := readNice(unix.Gettid()); ok {
				deliverer = append(deliverer, nice)
			} else {
				deliverErr = errors.New("no nice value for the thread delivering results")
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	ref, dist := frames(t, 6, 64, 48)
	for i := range ref {
		if err := ctx.Submit(ref[i], dist[i], nil); err != nil {
			t.Fatal(err)
		}
	}
	for range threads {
		<-setUp
	}
	set, err := lowSet()
	if err != nil {
		t.Fatal(err)
	}
	lowered := 0
	for tid := range set {
		if !before[tid] {
			lowered++
		}
	}
	if err := ctx.Flush(); err != nil {
		t.Fatal(err)
	}
	if deliverErr != nil {
		t.Fatal(deliverErr)
	}
	if lowered < threads {
		t.Errorf("%d threads at nice %d while scoring, want the %d workers'", lowered, base+workerNice, threads)
	}
	if len(deliverer) == 0 {
		t.Error("no result delivered")
	}
	for _, n := range deliverer {
		if n != base {
			t.Errorf("results delivered on a thread at nice %d, want %d", n, base)
		}
	}
}
