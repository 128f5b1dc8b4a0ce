package control

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTP sessions are created by the SDK's handlers, out of this package's
// sight; each is adopted by the first message it receives (initialize),
// which carries the slot its opening request claimed in its context. From
// then on it is a session like a socket client's: counted against the
// client limit, bounded in requests in flight, fed through its own outbox.

// httpActivity tracks a Streamable HTTP session's open requests, so that
// one a client abandoned (no DELETE) is closed once idle.
type httpActivity struct {
	sess *session
	open int
	last time.Time
}

// claim takes a client slot for a request that opens an HTTP session,
// or says why there is none.
func (s *Server) claim(sl *httpSlot) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if reason := s.admitLocked(false); reason != "" {
		return reason
	}
	s.slots[sl] = struct{}{}
	return ""
}

// unclaim gives the slot back when its request ends without a session
// having taken it.
func (s *Server) unclaim(sl *httpSlot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !sl.adopted {
		delete(s.slots, sl)
	}
}

// clientsLocked counts the clients holding a slot, on every transport.
func (s *Server) clientsLocked() int { return len(s.conns) + len(s.slots) }

// adopt makes an HTTP session ours on its first message. A slot serves
// one session.
func (s *Server) adopt(ms mcp.Session, sl *httpSlot) *session {
	ss, ok := ms.(*mcp.ServerSession)
	if !ok {
		return nil
	}
	s.mu.Lock()
	if sess := s.sessions[ss]; sess != nil {
		s.mu.Unlock()
		return sess
	}
	if sl.adopted || s.ctx.Err() != nil {
		s.mu.Unlock()
		return nil
	}
	sl.adopted = true
	sess := &session{ss: ss, out: newOutbox(s.opts.SessionBuffer), slot: sl, subs: map[string]bool{}}
	s.sessions[ss] = sess
	if id := ss.ID(); id != "" {
		s.httpIDs[id] = &httpActivity{sess: sess, last: time.Now()}
	}
	s.wg.Add(1)
	s.mu.Unlock()
	s.opts.Logger.Info("control client connected", "transport", sl.transport, "remote", sl.remote)
	go s.serveHTTPSession(sess)
	return sess
}

// serveHTTPSession writes an adopted session's notifications until it
// ends, then gives its slot back.
func (s *Server) serveHTTPSession(sess *session) {
	defer s.wg.Done()
	done := make(chan struct{})
	written := make(chan struct{})
	go func() {
		defer close(written)
		sess.out.runNotes(func(method string, p mcp.Params) error {
			return s.notifyNext(s.ctx, method, &mcp.ServerRequest[mcp.Params]{Session: sess.ss, Params: p})
		}, done)
	}()
	sess.ss.Wait()
	close(done)
	<-written

	s.mu.Lock()
	delete(s.sessions, sess.ss)
	delete(s.slots, sess.slot)
	if id := sess.ss.ID(); id != "" {
		delete(s.httpIDs, id)
	}
	if sess.subs[statusURI] {
		s.statusSub.Add(-1)
	}
	s.mu.Unlock()
	s.opts.Logger.Info("control client disconnected", "transport", sess.slot.transport, "remote", sess.slot.remote)
}

// touch counts a request open (+1) or ended (-1) on a Streamable HTTP
// session; it reports whether the session is one of ours.
func (s *Server) touch(id string, delta int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.httpIDs[id]
	if a == nil {
		return false
	}
	a.open += delta
	a.last = time.Now()
	return true
}

// reapIdle closes Streamable HTTP sessions that have had no request open
// (not even a listening GET) for the idle timeout: a client may vanish
// without the DELETE that ends its session, and would hold a slot forever.
func (s *Server) reapIdle() {
	defer s.wg.Done()
	tick := time.NewTicker(min(s.opts.HTTPIdleTimeout/4, 30*time.Second))
	defer tick.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case now := <-tick.C:
			var idle []*session
			s.mu.Lock()
			for _, a := range s.httpIDs {
				if a.open <= 0 && now.Sub(a.last) > s.opts.HTTPIdleTimeout {
					idle = append(idle, a.sess)
				}
			}
			s.mu.Unlock()
			for _, sess := range idle {
				s.opts.Logger.Info("control client idle; closing its session", "transport", sess.slot.transport, "remote", sess.slot.remote, "idle", s.opts.HTTPIdleTimeout)
				sess.ss.Close()
			}
		}
	}
}

// runNotes sends queued notifications through send until done closes.
// Over HTTP the SDK's transport frames them (an event on the session's
// stream); a failed send costs that notification only, since a client
// may reopen its stream.
func (o *outbox) runNotes(send func(method string, p mcp.Params) error, done <-chan struct{}) {
	for {
		select {
		case <-o.wake:
		case <-done:
			return
		}
		for {
			nt, dropped, ok := o.pop()
			if !ok {
				break
			}
			send(nt.method, withDropped(nt.params, dropped))
			select {
			case <-done:
				return
			default:
			}
		}
	}
}

// notifyNext is the SDK's own sending handler, below our middleware.
func (s *Server) notifyNext(ctx context.Context, method string, req mcp.Request) error {
	_, err := s.sendNext(ctx, method, req)
	return err
}
