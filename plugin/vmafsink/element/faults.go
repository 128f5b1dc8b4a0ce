package element

import (
	"fmt"
	"os"
	"strconv"
	"sync/atomic"

	"github.com/vmafsink/vmafsink/pipeline"
)

// testPanicEnv is a test hook, read when a run starts: with
// VMAFSINK_TEST_PANIC_FRAME=N the run's chain function panics on the
// N-th buffer it receives (from 0, both pads counted), so that tests can
// check that a panic reaches the host as an element error and nothing
// more. Unset, or not a number, it does nothing.
const testPanicEnv = "VMAFSINK_TEST_PANIC_FRAME"

// testPanicAtEnv is a test hook like testPanicEnv for other entries
// from C: "state-change" panics in the READY→PAUSED state change,
// "set-property" in every property set, "frame-message" on the Runner's
// publishing goroutine at the first frame message.
const testPanicAtEnv = "VMAFSINK_TEST_PANIC_AT"

// testPanicAt panics when testPanicAtEnv names where.
func testPanicAt(where string) {
	if os.Getenv(testPanicAtEnv) == where {
		panic(fmt.Sprintf("%s=%s: test panic", testPanicAtEnv, where))
	}
}

// panicHook is a run's test hook state.
type panicHook struct {
	at      int64 // buffer to panic on; -1: never
	buffers atomic.Int64
}

func newPanicHook() *panicHook {
	h := &panicHook{at: -1}
	if n, err := strconv.ParseInt(os.Getenv(testPanicEnv), 10, 64); err == nil && n >= 0 {
		h.at = n
	}
	return h
}

// buffer counts a buffer and panics on the chosen one.
func (h *panicHook) buffer() {
	if h.at < 0 {
		return
	}
	if n := h.buffers.Add(1) - 1; n == h.at {
		panic(fmt.Sprintf("%s=%d: test panic on buffer %d", testPanicEnv, h.at, n))
	}
}

// guard wraps a subscriber, which runs on the Runner's publishing
// goroutine: a panic there would end the host process, so it becomes an
// element error instead and the subscriber is called no more.
func (e *vmafSink) guard(what string, fn func(*pipeline.Record)) func(*pipeline.Record) {
	var dead atomic.Bool
	hook := os.Getenv(testPanicAtEnv) == "frame-message" && what == "frame messages"
	return func(r *pipeline.Record) {
		if dead.Load() {
			return
		}
		defer e.recoverPanic(what, func() { dead.Store(true) })
		if hook {
			testPanicAt("frame-message")
		}
		fn(r)
	}
}
