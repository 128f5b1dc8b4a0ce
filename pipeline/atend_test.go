package pipeline

import (
	"testing"
	"time"
)

// An engine that reports every result at the end (libvmaf) holds no slot
// free until then: the Runner must take a stream longer than its slot
// ring without waiting, and publish every result in order at the end.
func TestRunnerEngineReportingAtEnd(t *testing.T) {
	eng := &fakeEngine{atEnd: true}
	r := newTestRunner(t, eng, func(c *Config) { c.Pairing = PairByOrder })
	var got []int
	r.Subscribe(func(rec *Record) { got = append(got, rec.Index) })
	// Without room to grow the pusher waits forever: fail in a minute.
	watchdog := time.AfterFunc(time.Minute, func() { panic("Runner stalled on an engine that reports at the end") })
	defer watchdog.Stop()
	fs := newFrames(t)
	const n = 200 // many times the ring's starting size
	for i := range n {
		push(t, r, Ref, fs.frame(100, 40*i))
		push(t, r, Dist, fs.frame(90, 40*i))
	}
	finish(t, r)
	if len(got) != n {
		t.Fatalf("%d records published, want %d", len(got), n)
	}
	for i, idx := range got {
		if idx != i {
			t.Fatalf("record %d has index %d", i, idx)
		}
	}
	if st := r.Status(); st.Counters.Scored != n {
		t.Errorf("status counts %d scored, want %d", st.Counters.Scored, n)
	}
}
