package y4m

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// SkipFrames moves past the next n frames without reading their samples
// where it can: in a seekable raw file every frame has the same size, and
// in a seekable Y4M file so does every frame whose marker line is the
// next frame's (the usual bare "FRAME"), which is checked where the seek
// lands. Elsewhere it reads them. At the end of the stream it returns
// io.EOF, having skipped what there was.
func (r *Reader) SkipFrames(n int) error {
	if n <= 0 {
		return nil
	}
	if ok, err := r.seekFrames(n); ok || err != nil {
		return err
	}
	fr := NewFrame(r.format)
	for i := 0; i < n; i++ {
		if err := r.ReadFrame(fr); err != nil {
			return err
		}
	}
	return nil
}

// seekFrames seeks past n frames; false when the stream cannot be sought
// that way, having moved nothing.
func (r *Reader) seekFrames(n int) (bool, error) {
	sk, ok := r.src.(io.Seeker)
	if !ok {
		return false, nil
	}
	record := int64(r.FrameBytes())
	if r.y4m {
		// Peek may fill the buffer, so it comes before the offsets.
		line, _ := r.r.Peek(256)
		i := bytes.IndexByte(line, '\n')
		if i < 0 || !bytes.HasPrefix(line, []byte("FRAME")) {
			return false, nil
		}
		record += int64(i + 1)
	}
	cur, err := sk.Seek(0, io.SeekCurrent)
	if err != nil {
		return false, nil
	}
	end, err := sk.Seek(0, io.SeekEnd)
	if err != nil {
		return r.restore(sk, cur)
	}
	pos := cur - int64(r.r.Buffered())
	target := pos + int64(n)*record
	if target > end {
		// Fewer frames than n: reading them finds where the stream ends.
		return r.restore(sk, cur)
	}
	if _, err := sk.Seek(target, io.SeekStart); err != nil {
		return r.restore(sk, cur)
	}
	r.r.Reset(r.src)
	if r.y4m && target < end {
		mark, err := r.r.Peek(min(5, int(end-target)))
		if err != nil || !bytes.Equal(mark, []byte("FRAME")) {
			// Frames with marker lines of other lengths: read them.
			if _, err := sk.Seek(pos, io.SeekStart); err != nil {
				return true, fmt.Errorf("y4m: seeking back: %w", err)
			}
			r.r.Reset(r.src)
			return false, nil
		}
	}
	r.frames += n
	return true, nil
}

// restore puts the file offset back where the buffered reader left it.
func (r *Reader) restore(sk io.Seeker, cur int64) (bool, error) {
	if _, err := sk.Seek(cur, io.SeekStart); err != nil {
		return true, errors.Join(errors.New("y4m: seeking back"), err)
	}
	return false, nil
}
