// Package boundedfile reads files named by users whole: a model, a card,
// a token. Such a file must be a regular file no larger than a bound, and
// naming a FIFO, a device or a directory in its place must neither hang
// the caller nor cost it its memory.
package boundedfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// The errors Open and Read wrap, for errors.Is.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("larger than")
)

// Open opens path and checks, on the open descriptor (so that what was
// checked is what is read), that it is a regular file of at most limit
// bytes. It opens non-blocking, so that a FIFO named in a file's place
// cannot block the caller in open(2); reads from a regular file do not
// heed the flag.
func Open(path string, limit int64) (*os.File, fs.FileInfo, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	fi, err := f.Stat()
	switch {
	case err != nil:
	case !fi.Mode().IsRegular():
		err = fmt.Errorf("%s is %w (%s)", path, ErrNotRegular, kind(fi.Mode()))
	case fi.Size() > limit:
		err = fmt.Errorf("%s is %d bytes, %w %d bytes", path, fi.Size(), ErrTooLarge, limit)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadAll reads f, opened by Open with limit, to its end, refusing it if
// it has grown past limit since.
func ReadAll(f *os.File, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", f.Name(), err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s grew while being read, %w %d bytes", f.Name(), ErrTooLarge, limit)
	}
	return data, nil
}

// Read reads the regular file at path, of at most limit bytes, whole.
func Read(path string, limit int64) ([]byte, error) {
	f, _, err := Open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, limit)
}

// kind names what a file that is not a regular file is.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return fmt.Sprintf("mode %v", m.Type())
}
