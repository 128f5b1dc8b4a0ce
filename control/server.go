package control

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/internal/version"
)

// Options tunes a Server. The zero value is ready to use.
type Options struct {
	// AllowGID, when positive, lets members of that group (by primary
	// group) connect besides the owner; the socket is then mode 0660.
	AllowGID int
	// ReadOnlyGID, when positive, lets members of that group (by primary
	// group) connect to read but not swap, pause or resume (see roles.go);
	// the socket is then mode 0660 and given to that group, or, with an
	// AllowGID too, mode 0666 with SO_PEERCRED telling the peers apart.
	ReadOnlyGID int
	// AllowSharedSocketDir accepts a socket directory that others may
	// write without the sticky bit, or that another user owns (refused by
	// default: someone else could replace the socket with an impostor).
	AllowSharedSocketDir bool
	// MaxLineBytes bounds one inbound JSON-RPC message (default 1 MiB).
	MaxLineBytes int
	// SessionBuffer is how many notifications each client may lag behind
	// before the oldest are dropped (default 256).
	SessionBuffer int
	// WriteTimeout is how long a write to a client may go without moving a
	// byte before the client is disconnected (default 5s).
	WriteTimeout time.Duration
	// MaxSessions bounds concurrent clients (default 32).
	MaxSessions int
	// ReservedSlots is how many of MaxSessions only full-access socket
	// peers (the server's own user, AllowGID) may take (default 4, at
	// most MaxSessions-1; negative: none): read-only peers and HTTP
	// clients cannot.
	ReservedSlots int
	// ReclaimIdle is how long a client must have sent nothing, with no
	// request in flight, before a newcomer short of a slot may displace it
	// (default 30s; a connection still without initialize, after a fifth
	// of HandshakeTimeout or this, whichever is shorter).
	ReclaimIdle time.Duration
	// MaxSessionsPerPeer bounds one process's share of them, by the peer
	// pid from SO_PEERCRED (default half of MaxSessions, at least 1), so
	// that one misbehaving process cannot lock every other out.
	MaxSessionsPerPeer int
	// HandshakeTimeout is how long a new client has to send initialize
	// (or, in sessionless protocol versions, its first request) before it
	// is disconnected (default 5s): idle connections must not hold slots.
	HandshakeTimeout time.Duration
	// CloseTimeout bounds how long Close waits for handlers that do not
	// return (default 2s); the host's shutdown must not hang on them.
	CloseTimeout time.Duration
	// MaxInFlight bounds each client's concurrent requests (default 16).
	MaxInFlight int
	// MaxHeavy bounds the expensive reads (worst-frame images, score
	// ranges, long score lists, diagnoses) running at once, for all
	// clients together (default 2); one more is refused as busy.
	MaxHeavy int
	// HeavyCPUShare is the share of the machine's CPU time the expensive
	// reads may use together (default 0.05; see heavy.go).
	HeavyCPUShare float64
	// HeavyWait is how long an expensive read waits for room in the
	// budget before it is refused as busy (default 250ms).
	HeavyWait time.Duration
	// MaxWait caps how long a tool call with wait:true may block
	// (default 10 minutes).
	MaxWait time.Duration
	// ListTimeout bounds one vmaf_list_models call (default 10s).
	ListTimeout time.Duration
	// HTTPAddr, when set, also serves the server over HTTP on this
	// loopback address (HOST:PORT; port 0 lets the system choose, see
	// Server.HTTPAddr): Streamable HTTP at /mcp, HTTP+SSE at /sse. Other
	// addresses are refused.
	HTTPAddr string
	// MaxHTTPConns bounds the open HTTP connections, with a token or
	// without (default 64); one more is closed as soon as it is accepted.
	MaxHTTPConns int
	// HTTPTokenFile names a file holding a bearer token, read at start,
	// that every HTTP request must carry (Authorization: Bearer TOKEN).
	HTTPTokenFile string
	// HTTPIdleTimeout closes a Streamable HTTP session that has had no
	// request open, not even a listening GET, for this long (default 60
	// s): a client may go without ending its session.
	HTTPIdleTimeout time.Duration
	// Version is reported to clients as the server version (default: the
	// build's, from package internal/version).
	Version string
	// Logger receives connection events and every swap, pause and resume
	// with who asked and what came of it (see roles.go; default: discarded).
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = 1 << 20
	}
	if o.SessionBuffer <= 0 {
		o.SessionBuffer = 256
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 5 * time.Second
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = 32
	}
	if o.MaxSessionsPerPeer <= 0 {
		o.MaxSessionsPerPeer = max(1, o.MaxSessions/2)
	}
	if o.ReservedSlots == 0 {
		o.ReservedSlots = 4
	}
	if o.ReclaimIdle <= 0 {
		o.ReclaimIdle = 30 * time.Second
	}
	if o.HandshakeTimeout <= 0 {
		o.HandshakeTimeout = 5 * time.Second
	}
	if o.CloseTimeout <= 0 {
		o.CloseTimeout = 2 * time.Second
	}
	if o.MaxInFlight <= 0 {
		o.MaxInFlight = 16
	}
	if o.MaxHeavy <= 0 {
		o.MaxHeavy = 2
	}
	if !(o.HeavyCPUShare > 0 && o.HeavyCPUShare <= 1) {
		o.HeavyCPUShare = 0.05
	}
	if o.HeavyWait <= 0 {
		o.HeavyWait = 250 * time.Millisecond
	}
	if o.MaxWait <= 0 {
		o.MaxWait = 10 * time.Minute
	}
	if o.ListTimeout <= 0 {
		o.ListTimeout = 10 * time.Second
	}
	if o.MaxHTTPConns <= 0 {
		o.MaxHTTPConns = 64
	}
	if o.HTTPIdleTimeout <= 0 {
		o.HTTPIdleTimeout = time.Minute
	}
	if o.Version == "" {
		o.Version = version.String()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// maxListings bounds concurrent vmaf_list_models calls.
const maxListings = 2

// Server is an MCP server for one Target on a Unix socket, on HTTP, or both.
type Server struct {
	opts   Options
	target Target
	path   string
	mcp    *mcp.Server
	uid    int

	ln    *net.UnixListener // nil without a socket
	sock  socketFile
	httpf *httpFront // nil without HTTP

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*session
	conns    map[*wireConn]peer     // every open connection, for shutdown
	perPeer  map[int32]int          // open connections by peer pid
	slots    map[*httpSlot]struct{} // HTTP clients holding a slot
	httpIDs  map[string]*httpActivity
	listing  chan struct{} // vmaf_list_models calls running
	// heavySlots holds a place per expensive read running (heavy.go).
	heavySlots chan struct{}
	heavyCPU   cpuBudget
	// worstPNGs keeps rendered worst-frame images (worst_png.go).
	worstPNGs worstPNGs

	// testHookRegister, set only by tests, runs before a socket client's
	// session is registered.
	testHookRegister atomic.Pointer[func()]

	// sendNext is the SDK's sending handler below ours, which HTTP
	// sessions' writers call to send what the middleware queued.
	sendNext mcp.MethodHandler

	latest    atomic.Pointer[Record]
	shared    atomic.Pointer[sharedLines]
	statusSub atomic.Int32 // sessions subscribed to vmaf://status
	// statusLooks counts the publisher's looks at the status on behalf of
	// vmaf://status subscribers: the first sets what later ones compare.
	statusLooks atomic.Int64
	// statusBase is the status signature when the first vmaf://status
	// subscriber arrived, for the publisher's next look to compare with.
	statusBase atomic.Pointer[string]
	closeOnce  sync.Once
	// drainAnalytics, set by startAnalytics, lets the last drop's end
	// reach the clients before Close cuts them off.
	drainAnalytics func()
}

// session is our side of one connected client.
type session struct {
	ss       *mcp.ServerSession
	wire     *wireConn // nil over HTTP
	slot     *httpSlot // nil over the socket
	out      *outbox
	peer     peer
	inFlight atomic.Int32
	subs     map[string]bool // guarded by Server.mu
}

// Start binds the socket at path (if not empty) and the HTTP address of
// opts (if set), and serves t on them until Close. Errors in binding
// (missing directory, a live server on path, an address in use or not on
// loopback) are returned here.
func Start(path string, t Target, opts Options) (*Server, error) {
	if t == nil {
		return nil, errors.New("control: nil target")
	}
	if path == "" && opts.HTTPAddr == "" {
		return nil, errors.New("control: socket path is empty and no HTTP address is given: nothing to serve on")
	}
	s := newServer(path, t, opts)
	if err := s.start(); err != nil {
		return nil, err
	}
	return s, nil
}

// Clients counts the clients connected now, on every transport (those
// holding a slot of MaxSessions), for the host's metrics.
func (s *Server) Clients() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clientsLocked()
}

func (s *Server) start() error {
	if s.path != "" {
		if err := checkSocketDir(s.path, s.opts.AllowSharedSocketDir); err != nil {
			return err
		}
		gid, world := s.socketAccess()
		ln, sf, err := listenSocket(s.path, gid, world)
		if err != nil {
			return err
		}
		s.ln, s.sock = ln, sf
	}
	if s.opts.HTTPAddr != "" {
		s.warnHTTPRoles()
		if err := s.startHTTP(); err != nil {
			if s.ln != nil {
				s.ln.Close()
				s.sock.remove()
			}
			return err
		}
	}
	// Every goroutine serving the control plane descends from these and
	// inherits the label, so a CPU profile of the host process shows what
	// it costs (go tool pprof -tagfocus vmafsink=control).
	pprof.Do(context.Background(), pprof.Labels("vmafsink", "control"), func(context.Context) {
		// Subscribed before Start returns, so that no record the target
		// publishes after Start is missed by the publisher.
		records := s.target.Records(s.ctx)
		s.wg.Add(1)
		go s.publish(records)
		s.startAnalytics()
		if s.ln != nil {
			s.wg.Add(1)
			go s.acceptLoop()
			s.opts.Logger.Info("control socket listening", "path", s.path)
		}
		if s.httpf != nil {
			s.wg.Add(2)
			go s.serveHTTP()
			go s.reapIdle()
			s.opts.Logger.Info("control HTTP listening", "address", s.HTTPAddr())
		}
	})
	return nil
}

// Serve runs a server on path until ctx ends, then shuts it down.
func Serve(ctx context.Context, path string, t Target, opts Options) error {
	s, err := Start(path, t, opts)
	if err != nil {
		return err
	}
	<-ctx.Done()
	return s.Close()
}

func newServer(path string, t Target, opts Options) *Server {
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		opts:     opts,
		target:   t,
		path:     path,
		uid:      os.Geteuid(),
		ctx:      ctx,
		cancel:   cancel,
		sessions: make(map[*mcp.ServerSession]*session),
		conns:    make(map[*wireConn]peer),
		perPeer:  make(map[int32]int),
		slots:    make(map[*httpSlot]struct{}),
		httpIDs:  make(map[string]*httpActivity),
		listing:  make(chan struct{}, maxListings),

		heavySlots: make(chan struct{}, opts.MaxHeavy),
		heavyCPU:   cpuBudget{share: opts.HeavyCPUShare * float64(runtime.NumCPU())},
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "vmafsink", Title: "vmafsink VMAF measurement", Version: opts.Version}, &mcp.ServerOptions{
		Instructions:       instructions,
		Logger:             slog.New(atLeast{opts.Logger.Handler(), slog.LevelWarn}),
		SubscribeHandler:   s.subscribe,
		UnsubscribeHandler: s.unsubscribe,
		Capabilities: &mcp.ServerCapabilities{
			Logging:   &mcp.LoggingCapabilities{},
			Tools:     &mcp.ToolCapabilities{},
			Prompts:   &mcp.PromptCapabilities{},
			Resources: &mcp.ResourceCapabilities{Subscribe: true},
		},
	})
	s.mcp.AddSendingMiddleware(s.sendingMiddleware)
	s.mcp.AddReceivingMiddleware(s.receivingMiddleware)
	s.addTools()
	s.addResources()
	s.addPrompts()
	return s
}

func (s *Server) allowGID() int {
	if s.opts.AllowGID > 0 {
		return s.opts.AllowGID
	}
	return -1
}

// Path returns the socket path ("" without a socket).
func (s *Server) Path() string { return s.path }

// Close disconnects every client, stops serving and removes the socket
// file (if it is still the one this server created).
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		if s.drainAnalytics != nil {
			s.drainAnalytics()
		}
		s.cancel()
		if s.ln != nil {
			s.ln.Close()
		}
		// Closed outside the lock: closing a connection frees its slot,
		// which takes the lock.
		s.mu.Lock()
		conns := make([]*wireConn, 0, len(s.conns))
		for w := range s.conns {
			conns = append(conns, w)
		}
		s.mu.Unlock()
		for _, w := range conns {
			w.Close()
		}
		// The socket goes first: whatever still runs, nobody can connect.
		s.sock.remove()
		s.closeHTTP()
		done := make(chan struct{})
		go func() { s.wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(s.opts.CloseTimeout):
			s.opts.Logger.Warn("control plane closed with handlers still running; not waiting for them", "path", s.path, "waited", s.opts.CloseTimeout)
		}
		s.opts.Logger.Info("control plane closed", "path", s.path)
	})
	return nil
}

func (s *Server) acceptLoop() {
	defer s.wg.Done()
	for {
		c, err := s.ln.AcceptUnix()
		if err != nil {
			if s.ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of descriptors and the like: back off instead of spinning.
			s.opts.Logger.Warn("control socket accept", "error", err)
			select {
			case <-time.After(50 * time.Millisecond):
			case <-s.ctx.Done():
				return
			}
			continue
		}
		s.wg.Add(1)
		go s.serveConn(c)
	}
}

// serveConn runs one client's session to its end.
func (s *Server) serveConn(c *net.UnixConn) {
	defer s.wg.Done()
	w := newWireConn(c, s.opts.MaxLineBytes, s.opts.WriteTimeout)
	p, err := peerCred(c)
	if err != nil || s.peerRole(p) == roleNone {
		if err == nil {
			err = fmt.Errorf("peer uid %d gid %d (pid %d) is not allowed", p.uid, p.gid, p.pid)
		}
		s.opts.Logger.Warn("control client refused", "error", err)
		w.reply(nil, RPCPeerNotAllowed, "connection refused: "+err.Error())
		w.Close()
		return
	}
	s.runSession(w, p)
}

// runSession serves MCP on an accepted, admitted connection until it ends.
func (s *Server) runSession(w *wireConn, p peer) {
	if reason := s.track(w, p); reason != "" {
		s.opts.Logger.Warn("control client refused", "pid", p.pid, "reason", reason)
		w.reply(nil, RPCClientLimit, "connection refused: "+reason)
		w.Close()
		return
	}
	// The slot is free as soon as the client has gone, even while one of
	// its handlers is still finishing, and before the client can see its
	// connection end, whichever side ends it.
	release := sync.OnceFunc(func() { s.untrack(w, p) })
	w.onReadEnd, w.onClose = release, release
	defer release()
	w.handshakeBy(s.opts.HandshakeTimeout)
	// The SDK reads as soon as Connect starts the session, and the session
	// is ours only once it is registered: a subscription taken before that
	// would miss the records published in between. So nothing is read
	// until then.
	w.gate = make(chan struct{})
	openGate := sync.OnceFunc(func() { close(w.gate) })
	defer openGate()

	ss, err := s.mcp.Connect(s.ctx, &mcp.IOTransport{Reader: w, Writer: w, MaxLineLength: -1}, nil)
	if err != nil {
		s.opts.Logger.Warn("control session", "error", err)
		w.Close()
		return
	}
	if hook := s.testHookRegister.Load(); hook != nil {
		(*hook)()
	}
	sess := &session{ss: ss, wire: w, out: newOutbox(s.opts.SessionBuffer), peer: p, subs: map[string]bool{}}
	s.mu.Lock()
	s.sessions[ss] = sess
	s.mu.Unlock()
	openGate()
	s.opts.Logger.Info("control client connected", "pid", p.pid, "uid", p.uid)

	done := make(chan struct{})
	go func() {
		sess.out.run(w, done)
		// A failed write leaves the stream unusable: end the session.
		w.Close()
	}()
	ss.Wait()
	close(done)
	w.Close()

	s.mu.Lock()
	delete(s.sessions, ss)
	if sess.subs[statusURI] {
		s.statusSub.Add(-1)
	}
	s.mu.Unlock()
	s.opts.Logger.Info("control client disconnected", "pid", p.pid)
}

// track registers an open connection unless a limit is reached, in which
// case it says which.
func (s *Server) track(w *wireConn, p peer) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	full := s.peerRole(p) == roleFull
	if s.perPeer[p.pid] >= s.opts.MaxSessionsPerPeer {
		if s.clientsLocked() >= s.limitFor(full) && s.ctx.Err() == nil {
			return s.fullReason(full)
		}
		return fmt.Sprintf("process %d already has %d connections, its share of the %d client slots", p.pid, s.perPeer[p.pid], s.opts.MaxSessions)
	}
	if reason := s.admitLocked(full); reason != "" {
		return reason
	}
	s.conns[w] = p
	s.perPeer[p.pid]++
	return ""
}

func (s *Server) untrack(w *wireConn, p peer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.conns[w]; !ok {
		return
	}
	delete(s.conns, w)
	if s.perPeer[p.pid]--; s.perPeer[p.pid] <= 0 {
		delete(s.perPeer, p.pid)
	}
}

func (s *Server) lookup(sess mcp.Session) *session {
	ss, ok := sess.(*mcp.ServerSession)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions[ss]
}

// snapshot returns the current sessions, so that callers can work on them
// without holding the lock.
func (s *Server) snapshot(buf []*session) []*session {
	s.mu.Lock()
	defer s.mu.Unlock()
	buf = buf[:0]
	for _, sess := range s.sessions {
		buf = append(buf, sess)
	}
	return buf
}

// atLeast passes on records at or above a level: the SDK logs every
// notification it sends at Info, which per frame would flood a log.
type atLeast struct {
	slog.Handler
	min slog.Level
}

func (a atLeast) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= a.min && a.Handler.Enabled(ctx, l)
}

func (a atLeast) WithAttrs(attrs []slog.Attr) slog.Handler {
	return atLeast{a.Handler.WithAttrs(attrs), a.min}
}

func (a atLeast) WithGroup(name string) slog.Handler {
	return atLeast{a.Handler.WithGroup(name), a.min}
}

const instructions = `This server controls a running VMAF video-quality measurement.
Read vmaf_status first (state, model, counters, warnings). vmaf_score returns the latest per-frame
scores, the worst frames and pooled statistics. Subscribe to vmaf://scores/live for one
notification per scored frame (the record is in _meta.record). vmaf_request_model_swap,
vmaf_pause and vmaf_resume take effect at the next frame boundary; pass wait:true to block until applied.`
