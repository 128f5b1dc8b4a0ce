package element

import (
	"os"
	"sync"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

// resultsFile writes the records to results-filename with the report
// package, as vmaf-score does. The document is opened at the first frame,
// when the stream's size (which the XML header carries) is known, and is
// complete on disk after each commit (at most a second apart), so a run
// killed part-way still leaves a valid file; close completes it.
type resultsFile struct {
	mu       sync.Mutex
	path     string
	format   report.Format
	geometry func() (width, height int)
	w        *report.Writer
	live     analytics.Config // what of the analytics the file carries
	closed   bool
	err      error
}

// createResults checks that path can be written, so a bad path fails the
// element's start rather than its first frame.
func createResults(path string, format report.Format, geometry func() (int, int)) (*resultsFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	return &resultsFile{path: path, format: format, geometry: geometry}, nil
}

func (f *resultsFile) open() error {
	if f.w == nil && f.err == nil {
		w, h := f.geometry()
		f.w, f.err = report.Create(f.path, report.Options{Format: f.format, Width: w, Height: h, CommitInterval: time.Second,
			Percentiles: f.live.Percentiles,
			Windows:     f.live.WindowFrames > 0 || f.live.WindowDuration > 0,
			Alerts:      f.live.AlertThreshold > 0})
	}
	return f.err
}

// write runs on the Runner's publishing goroutine.
func (f *resultsFile) write(r *pipeline.Record) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed || f.open() != nil {
		return
	}
	model := ""
	if m := r.Model(); m != nil {
		model = m.Version
	}
	f.err = f.w.WriteFrame(report.Frame{Num: r.Index, Model: model, Metrics: r.Metrics, Models: r.Models})
}

// event records a window or a drop; it runs on the Runner's publishing
// goroutine, and at EOS on the thread that finishes the run, before close.
func (f *resultsFile) event(ev analytics.Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed || f.open() != nil {
		return
	}
	if ev.Window != nil {
		f.w.AddWindow(*ev.Window)
	}
	if ev.Alert != nil {
		f.w.AddAlert(*ev.Alert)
	}
}

// section adds the document's own section (report.Writer.SetSection),
// written when the document is next completed.
func (f *resultsFile) section(name string, raw []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed || f.open() != nil {
		return
	}
	f.w.SetSection(name, raw)
}

// complete records the engine's stream-level metrics (libvmaf's
// aggregate_metrics, such as psnr's apsnr_y), known once the run has
// finished, and writes the finished document, an empty one if no frame
// was scored. The file stays open: a stream restarted from its end (a
// flushing seek after EOS) adds its frames, and the next complete or
// close finishes the document again.
func (f *resultsFile) complete(ms []vmaf.Metric) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed || f.open() != nil {
		return f.err
	}
	for _, m := range ms {
		f.w.SetAggregate(m.Name, m.Value)
	}
	if err := f.w.Complete(); err != nil && f.err == nil {
		f.err = err
	}
	return f.err
}

// close completes the document, an empty one if no frame was scored;
// later calls return the first result.
func (f *resultsFile) close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		if f.open() == nil {
			f.err = f.w.Close()
		}
	}
	return f.err
}
