package vmaf

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// MaxModelFileBytes bounds a model file: libvmaf's largest model is under
// 1 MiB, and a path naming a huge file must not cost the process its memory.
const MaxModelFileBytes = 64 << 20

// readModelFile reads a model file that must be a regular file. It is
// opened non-blocking, so that a FIFO or a device named like a model
// cannot hang the caller in open(2), and checked on the open descriptor,
// so that what was checked is what is read.
func readModelFile(path string) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%v)", path, fi.Mode().Type())
	}
	if fi.Size() > MaxModelFileBytes {
		return nil, fmt.Errorf("%s is %d bytes; model files are at most %d", path, fi.Size(), MaxModelFileBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxModelFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(data) > MaxModelFileBytes {
		return nil, fmt.Errorf("%s grew past %d bytes while being read", path, MaxModelFileBytes)
	}
	return data, nil
}
