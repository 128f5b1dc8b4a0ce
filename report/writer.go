package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/vmafsink/vmafsink/vmaf"
)

// DefaultVersion is the "version" written when Options.Version is empty:
// the libvmaf release whose schema and scores this project reproduces.
const DefaultVersion = "3.2.0"

// Metric is one named score of a frame, under libvmaf's metric names
// ("vmaf", "integer_adm2", "psnr_y", ...). It is the engine's type, so a
// vmaf.Result's metrics can be written as they are.
type Metric = vmaf.Metric

// Frame is one scored frame.
type Frame struct {
	Num     int      // frameNum: the index of the frame pair
	Model   string   // optional: the model that scored this frame, written when not empty
	Metrics []Metric // in the order they are to be printed
	// Models, when set, are the models whose outputs Metrics carries.
	// The Writer then keeps each model's frames and pooled metrics under
	// a name of its own (see ModelKeys) and lists where the models
	// changed: "model_swaps" in JSON, <model_swaps> in XML; in CSV a
	// model's new columns follow the others, and the rows before it end
	// before them.
	Models []*vmaf.Model
}

// Options configure a Writer.
type Options struct {
	Format        Format
	Version       string // DefaultVersion when empty
	Width, Height int    // XML <params qualityWidth/qualityHeight>

	// CommitInterval batches commits to a file: frames are committed when
	// at least this long has passed since the previous commit, and on
	// Commit and Close. Zero commits every frame.
	CommitInterval time.Duration

	// Now replaces time.Now for the processing rate ("fps"); for tests.
	Now func() time.Time

	// Percentiles, each in [0,100], add the nearest-rank percentiles of
	// each model's score to its pooled metrics (see PercentileKey); none
	// by default, so the document stays libvmaf's.
	Percentiles []float64
	// Windows and Alerts add the "windows" and "alerts" sections (XML
	// <windows> and <alerts>), filled by AddWindow and AddAlert; JSON and
	// XML only.
	Windows, Alerts bool
}

// Writer writes one results document. It is not safe for concurrent use.
//
// In a CSV document the columns are the metrics of the first frame (and a
// "model" column when that frame names its model); later frames leave a
// missing metric's cell empty and cannot add columns. JSON and XML carry
// every metric of every frame.
type Writer struct {
	opts Options
	out  io.Writer // in-memory mode: where Close writes the document
	file *os.File  // file mode: the document kept valid on disk

	buf     []byte // in-memory mode: all frames; file mode: frames not yet committed
	scratch []byte // header and trailer
	pool    pooler
	// aggregate holds libvmaf's "aggregate_metrics", which its tool leaves
	// empty; set through SetAggregate.
	aggregate []Metric

	columns     []string // CSV columns, fixed by the first frame
	modelColumn bool
	extra       []string // CSV columns of models that took over later

	keys  ModelKeys
	swaps []Swap

	// The windows and drops, each laid out once when added (JSON or
	// XML), so that rewriting the trailer does not lay them out again.
	windows, alerts entries
	warnings        []string // AddWarning's, in order
	notes           []string // AddNote's, in order
	section         *section // the document's own section; nil: none

	frames      int
	start, last time.Time
	lastCommit  time.Time

	headerLen   int64 // file mode: length of the header on disk
	headerStale bool  // file mode: the header on disk is not the current one
	end         int64 // file mode: end of the committed frames

	err    error
	closed bool
}

// NewWriter returns a Writer that assembles the document in memory and
// writes it to out on Close.
func NewWriter(out io.Writer, opts Options) *Writer {
	w := newWriter(opts)
	w.out = out
	return w
}

// Create creates (or truncates) the file at path and returns a Writer that
// keeps it a valid document after every commit. Close closes the file.
func Create(path string, opts Options) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	w := newWriter(opts)
	w.file = f
	// An empty document right away, so even a run that scores nothing
	// leaves a parseable file.
	if err := w.commit(); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

func newWriter(opts Options) *Writer {
	if opts.Version == "" {
		opts.Version = DefaultVersion
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	w := &Writer{opts: opts, headerStale: true}
	w.start = opts.Now()
	w.lastCommit = w.start
	return w
}

// Frames returns the number of frames written so far.
func (w *Writer) Frames() int { return w.frames }

// WriteFrame adds one frame. A frame without metrics is skipped, as libvmaf
// skips frames that have no scores.
func (w *Writer) WriteFrame(f Frame) error {
	if w.closed {
		return errors.New("report: write after Close")
	}
	if w.err != nil {
		return w.err
	}
	if len(f.Metrics) == 0 {
		return nil
	}
	if len(f.Models) > 0 {
		var sw Swap
		var swapped bool
		f.Metrics, sw, swapped = w.keys.Rename(f.Num, f.Models, f.Metrics)
		if swapped {
			w.swaps = append(w.swaps, sw)
			if err := w.addColumns(f.Metrics); err != nil {
				return err
			}
		}
	}
	if w.frames == 0 && w.opts.Format == CSV {
		w.columns = make([]string, len(f.Metrics))
		for i, m := range f.Metrics {
			w.columns[i] = m.Name
		}
		w.modelColumn = f.Model != ""
		w.headerStale = true
	}
	w.buf = w.appendFrame(w.buf, &f)
	for _, m := range f.Metrics {
		w.pool.add(m)
	}
	if len(w.opts.Percentiles) > 0 {
		w.addModelScores(&f)
	}
	w.frames++
	w.last = w.opts.Now()
	if w.file != nil && w.last.Sub(w.lastCommit) >= w.opts.CommitInterval {
		w.lastCommit = w.last
		return w.commit()
	}
	return nil
}

// addColumns gives a CSV document a column for every metric it lacks,
// and the rows already written an empty cell in each, so that every row
// keeps the header's width.
func (w *Writer) addColumns(ms []Metric) error {
	if w.opts.Format != CSV || w.frames == 0 {
		return nil
	}
	n := len(w.extra)
	for _, m := range ms {
		if !slices.Contains(w.columns, m.Name) && !slices.Contains(w.extra, m.Name) {
			w.extra = append(w.extra, m.Name)
		}
	}
	if len(w.extra) == n {
		return nil
	}
	w.headerStale = true
	pad := strings.Repeat(",", len(w.extra)-n)
	w.buf = padRows(w.buf, pad)
	if w.file == nil {
		return nil
	}
	return w.padFileRows(pad)
}

// padRows appends pad to every CSV row in b; line breaks inside quoted
// fields are not row ends.
func padRows(b []byte, pad string) []byte {
	out := make([]byte, 0, len(b)+len(b)/8)
	quoted := false
	for _, c := range b {
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\n' && !quoted:
			out = append(out, pad...)
		}
		out = append(out, c)
	}
	return out
}

// SetAggregate sets one of the document's aggregate metrics, replacing an
// earlier value of the same name.
func (w *Writer) SetAggregate(name string, value float64) {
	for i := range w.aggregate {
		if w.aggregate[i].Name == name {
			w.aggregate[i].Value = value
			return
		}
	}
	w.aggregate = append(w.aggregate, Metric{Name: name, Value: value})
}

// Commit makes every frame written so far part of the file on disk. It
// does nothing for a Writer made with NewWriter.
func (w *Writer) Commit() error {
	if w.closed {
		return errors.New("report: commit after Close")
	}
	if w.err != nil || w.file == nil {
		return w.err
	}
	return w.commit()
}

// Complete writes the finished document, as Close does, and keeps the
// file open: frames written after it extend the document, which the next
// Complete or Close finishes again. It does nothing for a Writer made
// with NewWriter.
func (w *Writer) Complete() error {
	if w.closed {
		return errors.New("report: Complete after Close")
	}
	if w.err != nil || w.file == nil {
		return w.err
	}
	return w.finishFile()
}

// fps is libvmaf's processing rate: frames over the time from the start
// of the run to the last frame; NaN when it is not known.
func (w *Writer) fps() float64 {
	d := w.last.Sub(w.start).Seconds()
	if w.frames == 0 || d <= 0 {
		return math.NaN()
	}
	return float64(w.frames) / d
}

// Close finishes the document and, for a file, closes it. The returned
// error is the first one met while writing.
func (w *Writer) Close() error {
	if w.closed {
		return errors.New("report: Close called twice")
	}
	w.closed = true
	if w.file != nil {
		err := w.err
		if err == nil {
			err = w.finishFile()
		}
		if cerr := w.file.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("report: %w", cerr)
		}
		return err
	}
	if w.err != nil {
		return w.err
	}
	w.scratch = w.appendHeader(w.scratch[:0], w.fps())
	w.buf = w.appendTrailer(w.buf)
	for _, part := range [][]byte{w.scratch, w.buf} {
		if _, err := w.out.Write(part); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	return nil
}
