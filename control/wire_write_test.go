package control

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// pacedConn is a client socket as the server's writes see it: each Write
// moves at most step bytes and, when that is not all, fails as a passed
// write deadline does. step 0 is a client that has stopped reading.
type pacedConn struct {
	step int
	err  error // returned with a short write instead of the deadline
	got  bytes.Buffer
}

func (c *pacedConn) Read([]byte) (int, error)         { return 0, io.EOF }
func (c *pacedConn) Close() error                     { return nil }
func (c *pacedConn) SetReadDeadline(time.Time) error  { return nil }
func (c *pacedConn) SetWriteDeadline(time.Time) error { return nil }

func (c *pacedConn) Write(p []byte) (int, error) {
	n := min(len(p), c.step)
	c.got.Write(p[:n])
	if n == len(p) {
		return n, nil
	}
	if c.err != nil {
		return n, c.err
	}
	return n, os.ErrDeadlineExceeded
}

// TestWireWriteKeepsSlowReader: a write that times out having moved some
// bytes is carried on with a new deadline, so a client that reads a long
// batch slowly gets all of it in order; a timeout with nothing moved, or
// any other error, gives the client up at once.
func TestWireWriteKeepsSlowReader(t *testing.T) {
	lines := []string{"{\"a\":1}\n", "{\"b\":22}\n", "{\"c\":333}\n"}
	all := lines[0] + lines[1] + lines[2]
	for _, tc := range []struct {
		name      string
		conn      *pacedConn
		wantErr   error // nil: every byte delivered
		wantBytes int
	}{
		{"reads 4 bytes at a time", &pacedConn{step: 4}, nil, len(all)},
		{"reads it all at once", &pacedConn{step: 1 << 20}, nil, len(all)},
		{"stopped reading", &pacedConn{step: 0}, os.ErrDeadlineExceeded, 0},
		{"connection broken mid-line", &pacedConn{step: 5, err: io.ErrClosedPipe}, io.ErrClosedPipe, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWireConn(tc.conn, 1<<20, time.Second)
			var bufs net.Buffers
			for _, l := range lines {
				bufs = append(bufs, []byte(l))
			}
			err := w.writeLines(&bufs)
			if tc.wantErr == nil && err != nil {
				t.Fatalf("writeLines: %v", err)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Fatalf("writeLines: %v, want %v", err, tc.wantErr)
			}
			if got := tc.conn.got.String(); got != all[:tc.wantBytes] {
				t.Errorf("client got %q, want %q", got, all[:tc.wantBytes])
			}
		})
	}
	t.Run("Write", func(t *testing.T) {
		c := &pacedConn{step: 3}
		w := newWireConn(c, 1<<20, time.Second)
		if n, err := w.Write([]byte(all)); err != nil || n != len(all) {
			t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(all))
		}
		if c.got.String() != all {
			t.Errorf("client got %q", c.got.String())
		}
		stopped := &pacedConn{step: 0}
		w = newWireConn(stopped, 1<<20, time.Second)
		if n, err := w.Write([]byte(all)); !errors.Is(err, os.ErrDeadlineExceeded) || n != 0 {
			t.Errorf("Write to a stopped client = %d, %v; want 0 and the deadline", n, err)
		}
	})
}
