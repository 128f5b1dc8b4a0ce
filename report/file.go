package report

import (
	"fmt"
	"math"
)

// commit writes the pending frames after the committed ones, then the
// trailer, and cuts the file there, leaving a complete document on disk.
// Until Close the header shows the processing rate as unknown (null in
// JSON): it is only known at the end, and rewriting a header whose length
// changes would move every frame on each commit.
func (w *Writer) commit() error {
	if w.headerStale {
		if err := w.writeHeader(math.NaN()); err != nil {
			return w.fail(err)
		}
	}
	n := len(w.buf)
	w.buf = w.appendTrailer(w.buf)
	if _, err := w.file.WriteAt(w.buf, w.end); err != nil {
		return w.fail(err)
	}
	if err := w.file.Truncate(w.end + int64(len(w.buf))); err != nil {
		return w.fail(err)
	}
	w.end += int64(n)
	w.buf = w.buf[:0]
	return nil
}

// finishFile writes the final header, with the measured processing rate,
// and commits the last frames.
func (w *Writer) finishFile() error {
	if err := w.writeHeader(w.fps()); err != nil {
		return w.fail(err)
	}
	return w.commit()
}

// writeHeader puts a new header at the start of the file, moving the
// committed frames when its length differs from the old header's.
func (w *Writer) writeHeader(fps float64) error {
	w.scratch = w.appendHeader(w.scratch[:0], fps)
	newLen := int64(len(w.scratch))
	if newLen != w.headerLen {
		if err := w.moveFrames(newLen); err != nil {
			return err
		}
	}
	if _, err := w.file.WriteAt(w.scratch, 0); err != nil {
		return err
	}
	w.headerStale = false
	return nil
}

// moveFrames moves the committed frames, [headerLen, end), to start at
// newStart, copying from the far end first when moving forward so that no
// byte is overwritten before it is read.
func (w *Writer) moveFrames(newStart int64) error {
	delta := newStart - w.headerLen
	size := w.end - w.headerLen
	chunk := make([]byte, 64<<10)
	for done := int64(0); done < size; {
		n := min(int64(len(chunk)), size-done)
		off := w.headerLen + done // moving backward: front to back
		if delta > 0 {
			off = w.end - done - n // moving forward: back to front
		}
		if _, err := w.file.ReadAt(chunk[:n], off); err != nil {
			return fmt.Errorf("moving frames: %w", err)
		}
		if _, err := w.file.WriteAt(chunk[:n], off+delta); err != nil {
			return fmt.Errorf("moving frames: %w", err)
		}
		done += n
	}
	w.headerLen = newStart
	w.end += delta
	return nil
}

// padFileRows appends pad to every committed row on disk and commits, so
// the file on disk has the new header as soon as its rows are padded.
func (w *Writer) padFileRows(pad string) error {
	if w.err != nil {
		return w.err
	}
	rows := make([]byte, w.end-w.headerLen)
	if _, err := w.file.ReadAt(rows, w.headerLen); err != nil {
		return w.fail(fmt.Errorf("padding rows: %w", err))
	}
	rows = padRows(rows, pad)
	if _, err := w.file.WriteAt(rows, w.headerLen); err != nil {
		return w.fail(fmt.Errorf("padding rows: %w", err))
	}
	w.end = w.headerLen + int64(len(rows))
	return w.commit()
}

func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = fmt.Errorf("report: %w", err)
	}
	return w.err
}
