package control

import (
	"fmt"
	"time"
)

// Client slots. MaxSessions clients at once, on every transport together;
// the last ReservedSlots of them only for full-access socket peers (the
// server's own user, mcp-allow-gid), whom SO_PEERCRED vouches for, so that
// read-only peers and HTTP clients, with a token or without, can never
// lock the owner out. When the slots a newcomer may take are all held, the
// longest-idle client it may displace is closed to make room: first a
// connection that has not sent initialize for a while (a real client sends
// it within milliseconds of connecting), then a client that has sent
// nothing for ReclaimIdle and has no request in flight (over HTTP: no
// request open, not even a listening GET). A read-only or HTTP newcomer
// displaces only read-only or HTTP clients; a full-access one anyone.

// slotUser is a client competing for a slot: its class and how idle it is.
type slotUser struct {
	wire    *wireConn // a socket client, or
	http    *session  // a Streamable HTTP session
	full    bool      // a full-access socket peer
	pending bool      // connected, no initialize yet
	idle    time.Duration
}

// admitLocked says why a newcomer (full: a full-access socket peer) may
// not have a slot, or makes room for it, closing an idle client if need
// be, and returns "".
func (s *Server) admitLocked(full bool) string {
	if s.ctx.Err() != nil {
		return "the server is shutting down"
	}
	if s.clientsLocked() < s.limitFor(full) {
		return ""
	}
	if v, ok := s.reclaimableLocked(full); ok {
		s.evictLocked(v)
		return ""
	}
	return s.fullReason(full)
}

// limitFor is how many clients may be connected when a newcomer of that
// class joins.
func (s *Server) limitFor(full bool) int {
	if full {
		return s.opts.MaxSessions
	}
	return s.opts.MaxSessions - s.reservedSlots()
}

// fullReason says why a newcomer finds no slot.
func (s *Server) fullReason(full bool) string {
	limit := s.limitFor(full)
	if full || s.reservedSlots() == 0 {
		return fmt.Sprintf("%d clients already connected (the limit; mcp-max-clients), none of them idle", s.opts.MaxSessions)
	}
	return fmt.Sprintf("%d clients already connected; the other %d slots of the %d (mcp-max-clients) are kept for the server's own user and mcp-allow-gid, none of the others is idle",
		limit, s.reservedSlots(), s.opts.MaxSessions)
}

// reservedSlots is how many slots only full-access socket peers may take.
func (s *Server) reservedSlots() int {
	return max(min(s.opts.ReservedSlots, s.opts.MaxSessions-1), 0)
}

// pendingReclaim is how long a connection may go without initialize
// before a newcomer short of a slot may displace it.
func (s *Server) pendingReclaim() time.Duration {
	return min(s.opts.ReclaimIdle, s.opts.HandshakeTimeout/5)
}

// reclaimableLocked picks the client to close for a newcomer: a pending
// connection idle longest, else the initialized client idle longest; only
// among those the newcomer may displace.
func (s *Server) reclaimableLocked(full bool) (slotUser, bool) {
	var best slotUser
	found := false
	consider := func(u slotUser) {
		if u.full && !full {
			return
		}
		if u.pending && u.idle < s.pendingReclaim() || !u.pending && u.idle < s.opts.ReclaimIdle {
			return
		}
		if !found || u.pending && !best.pending || u.pending == best.pending && u.idle > best.idle {
			best, found = u, true
		}
	}
	now := time.Now()
	busy := make(map[*wireConn]bool, len(s.sessions))
	for _, sess := range s.sessions {
		if sess.wire != nil && sess.inFlight.Load() > 0 {
			busy[sess.wire] = true
		}
	}
	for w, p := range s.conns {
		if busy[w] || w.ids.openCount() > 0 || w.lastActive.Load() == 0 {
			continue // lastActive unset: not a connection this server reads
		}
		consider(slotUser{wire: w, full: s.peerRole(p) == roleFull, pending: !w.opened.Load(),
			idle: now.Sub(time.Unix(0, w.lastActive.Load()))})
	}
	for _, a := range s.httpIDs {
		if a.open <= 0 && a.sess.inFlight.Load() == 0 {
			consider(slotUser{http: a.sess, idle: now.Sub(a.last)})
		}
	}
	return best, found
}

// evictLocked gives a client's slot to a newcomer at once and closes the
// client, telling a socket client why.
func (s *Server) evictLocked(u slotUser) {
	if u.wire != nil {
		p := s.conns[u.wire]
		delete(s.conns, u.wire)
		if s.perPeer[p.pid]--; s.perPeer[p.pid] <= 0 {
			delete(s.perPeer, p.pid)
		}
		what := "idle"
		if u.pending {
			what = "without initialize"
		}
		s.opts.Logger.Info("control client reclaimed for a newcomer", "pid", p.pid, "uid", p.uid, "state", what, "idle", u.idle)
		go func() {
			u.wire.reply(nil, RPCClientLimit, fmt.Sprintf("connection closed: %s for %v while every client slot was taken; its slot went to a new client", what, u.idle.Round(time.Millisecond)))
			u.wire.Close()
		}()
		return
	}
	delete(s.slots, u.http.slot)
	if id := u.http.ss.ID(); id != "" {
		delete(s.httpIDs, id)
	}
	s.opts.Logger.Info("control client reclaimed for a newcomer", "transport", u.http.slot.transport, "remote", u.http.slot.remote, "idle", u.idle)
	go u.http.ss.Close()
}
