package control

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// connLimit is a listener that holds at most max connections open. One
// past the limit is accepted and closed at once: left in the kernel's
// backlog it would wait unanswered, and letting it in would let a flood
// of connections run the process out of file descriptors, which the
// socket's owner needs too.
type connLimit struct {
	net.Listener
	max     int64
	open    atomic.Int64
	dropped atomic.Int64
	warn    func(open, dropped int64)
	lastLog atomic.Int64 // Unix nanoseconds of the last warning
}

func newConnLimit(ln net.Listener, max int, warn func(open, dropped int64)) *connLimit {
	return &connLimit{Listener: ln, max: int64(max), warn: warn}
}

func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.open.Add(1) > l.max {
			l.open.Add(-1)
			c.Close()
			n := l.dropped.Add(1)
			// At most one warning a second, whatever the flood.
			if now := time.Now().UnixNano(); now-l.lastLog.Load() > int64(time.Second) {
				l.lastLog.Store(now)
				l.warn(l.max, n)
			}
			continue
		}
		return &limitedConn{Conn: c, l: l}, nil
	}
}

// limitedConn gives its place back when closed, once.
type limitedConn struct {
	net.Conn
	l    *connLimit
	once sync.Once
}

func (c *limitedConn) Close() error {
	c.once.Do(func() { c.l.open.Add(-1) })
	return c.Conn.Close()
}
