package pipelines

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"
)

// stepFeed writes a clip into a FIFO in steps the test chooses, holding
// the FIFO open between steps: its reader has exactly the frames let in
// so far, for as long as the test needs (until Prometheus has scraped
// that state, say), whatever the machine's speed.
type stepFeed struct {
	path  string
	upto  chan int   // write the frames before this index
	wrote chan error // one answer a step
	ended bool
}

// newStepFeed makes the FIFO at path and starts its writer, which opens
// it, writes header, and then writes frames only as the steps allow. The
// writer opens it for reading too (Linux keeps such a FIFO open without
// waiting for a reader): a reader that opens and closes it before opening
// it for good (filesrc does, trying pull mode first) would otherwise
// leave a writer that had got in with a broken pipe.
func newStepFeed(t *testing.T, path string, header []byte, frames [][]byte) *stepFeed {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	f := &stepFeed{path: path, upto: make(chan int), wrote: make(chan error, 1)}
	go func() {
		defer w.Close()
		var err error
		if len(header) > 0 {
			_, err = w.Write(header)
		}
		next := 0
		for n := range f.upto {
			for ; err == nil && next < n && next < len(frames); next++ {
				_, err = w.Write(frames[next])
			}
			f.wrote <- err
		}
	}()
	// Closing ends a write blocked on a reader that has gone.
	t.Cleanup(func() { f.end(); w.Close() })
	return f
}

// end closes the FIFO once the frames let in are written: its reader
// sees the end of the stream.
func (f *stepFeed) end() {
	if !f.ended {
		f.ended = true
		close(f.upto)
	}
}

// feedTo lets every feed write its frames before index n, concurrently
// (a reader may take its inputs in any order), and returns once they are
// all in the FIFOs. The minute is a guard against a reader that stopped
// reading (or ended: the writer holds the FIFO open).
func feedTo(n int, feeds ...*stepFeed) error {
	guard := time.After(time.Minute)
	for _, f := range feeds {
		select {
		case f.upto <- n:
		case <-guard:
			return fmt.Errorf("the reader did not open %s within a minute", f.path)
		}
	}
	var first error
	for _, f := range feeds {
		select {
		case err := <-f.wrote:
			if err != nil && first == nil {
				first = fmt.Errorf("writing %s up to frame %d: %w", f.path, n, err)
			}
		case <-guard:
			return fmt.Errorf("the reader took no frame before %d from %s for a minute", n, f.path)
		}
	}
	return first
}

// splitFrames cuts raw data into frames of size bytes, each with prefix.
func splitFrames(data []byte, size int, prefix string) [][]byte {
	var frames [][]byte
	for off := 0; off+size <= len(data); off += size {
		frames = append(frames, append([]byte(prefix), data[off:off+size]...))
	}
	return frames
}

// promUntil polls an instant query until its one sample satisfies ok (a
// scrape that Prometheus made of the state the test holds), and returns
// the last value seen. It fails when stopped is closed first (the
// scraped process ended) or after two minutes, a guard against a hang.
func promUntil(t *testing.T, api, query string, ok func(float64) bool, stopped <-chan struct{}) (float64, error) {
	t.Helper()
	guard := time.After(2 * time.Minute)
	for {
		v, found := promQuery(t, api, query)
		if found && ok(v) {
			return v, nil
		}
		select {
		case <-stopped:
			return v, fmt.Errorf("%s = %v (found %v) when the process ended", query, v, found)
		case <-guard:
			return v, fmt.Errorf("%s = %v (found %v) after two minutes", query, v, found)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
