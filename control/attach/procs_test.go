package attach

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/vmafsink/vmafsink/vmaf"
)

// threadNice reads a thread's nice value from /proc (field 19 of stat,
// counted after the parenthesised command name, which may hold spaces).
func threadNice(t *testing.T, tid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/stat", tid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	n, err := strconv.Atoi(fields[16])
	if err != nil {
		t.Fatalf("stat of thread %d: %v", tid, err)
	}
	return n
}

func TestBackgroundThreadLowersOnlyItsThread(t *testing.T) {
	base := threadNice(t, os.Getpid())
	type seen struct {
		main, lowered bool
		before, after int
	}
	// Several goroutines hold their threads at once, so at least one of
	// them is not on the main thread.
	const n = 3
	var (
		wg   sync.WaitGroup
		hold sync.WaitGroup
		mu   sync.Mutex
		all  []seen
	)
	hold.Add(n)
	for range n {
		wg.Go(func() {
			// The thread ends with this goroutine when lowered, so the
			// change does not reach the rest of the test binary.
			runtime.LockOSThread()
			hold.Done()
			hold.Wait()
			tid := unix.Gettid()
			s := seen{main: tid == os.Getpid(), before: threadNice(t, tid)}
			s.lowered = backgroundThread()
			s.after = threadNice(t, tid)
			if !s.lowered {
				runtime.UnlockOSThread()
			}
			mu.Lock()
			all = append(all, s)
			mu.Unlock()
		})
	}
	wg.Wait()
	for _, s := range all {
		want := min(s.before+workerNice, 19)
		if s.main {
			want = s.before
		}
		if s.after != want || s.lowered != (want != s.before) {
			t.Errorf("thread (main %v) at nice %d: %d after backgroundThread (reported %v), want %d", s.main, s.before, s.after, s.lowered, want)
		}
	}
	if got := threadNice(t, os.Getpid()); got != base {
		t.Errorf("main thread's nice went from %d to %d", base, got)
	}
}

// TestStartMarksWorkersBackground: once a control plane is attached, the
// native engine's workers run at the lowered priority (all but one, which
// may be on the main thread), and the goroutine delivering results does
// not.
func TestStartMarksWorkersBackground(t *testing.T) {
	spareProc()
	if workerNice == 0 {
		t.Skip(workerNiceEnv + "=0 leaves the workers alone")
	}
	base := threadNice(t, os.Getpid())
	m, err := vmaf.BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		t.Fatal(err)
	}
	const threads = 3
	var lowered int
	var deliverer []int
	check := func() {
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			t.Fatal(err)
		}
		lowered = 0
		for _, d := range tasks {
			tid, _ := strconv.Atoi(d.Name())
			if threadNice(t, tid) == min(base+workerNice, 19) {
				lowered++
			}
		}
		deliverer = append(deliverer, threadNice(t, unix.Gettid()))
	}
	ctx, err := vmaf.NewContext(vmaf.Config{Models: []*vmaf.Model{m}, Engine: "native", Threads: threads,
		// Results come while the workers are alive (they end at Flush).
		OnResult: func(*vmaf.Result) { check() }})
	if err != nil {
		t.Fatal(err)
	}
	ref, dist := frames(t, 6, 64, 48)
	for i := range ref {
		if err := ctx.Submit(ref[i], dist[i], nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := ctx.Flush(); err != nil {
		t.Fatal(err)
	}
	if lowered < threads-1 {
		t.Errorf("%d threads at nice %d while scoring, want at least %d of the %d workers", lowered, base+workerNice, threads-1, threads)
	}
	for _, n := range deliverer {
		if n != base {
			t.Errorf("results delivered on a thread at nice %d, want %d", n, base)
		}
	}
}
