package control

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// connLimit holds the HTTP server to at most max open connections. One
// past the limit is closed as soon as the server has accepted it: left
// in the kernel's backlog it would wait unanswered, and letting it in
// would let a flood of connections run the process out of file
// descriptors, which the socket's owner needs too. It follows the
// connections through http.Server.ConnState, so the server keeps its own
// *net.TCPConn (a wrapped connection costs the server its TCP fast paths).
type connLimit struct {
	max     int
	warn    func(max int, dropped int64)
	mu      sync.Mutex
	open    map[net.Conn]struct{}
	dropped int64
	lastLog time.Time
}

func newConnLimit(max int, warn func(max int, dropped int64)) *connLimit {
	return &connLimit{max: max, warn: warn, open: make(map[net.Conn]struct{})}
}

// state is the http.Server's ConnState hook.
func (l *connLimit) state(c net.Conn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch st {
	case http.StateNew:
		if len(l.open) < l.max {
			l.open[c] = struct{}{}
			return
		}
		c.Close()
		l.dropped++
		// At most one warning a second, whatever the flood.
		if now := time.Now(); now.Sub(l.lastLog) > time.Second {
			l.lastLog = now
			l.warn(l.max, l.dropped)
		}
	case http.StateClosed, http.StateHijacked:
		delete(l.open, c)
	}
}

// count is how many connections are open.
func (l *connLimit) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.open)
}
