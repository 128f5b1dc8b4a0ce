package control

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/internal/boundedfile"
)

// The HTTP front serves the same MCP server as the socket, for hosts that
// speak HTTP: Streamable HTTP at /mcp and the older HTTP+SSE transport at
// /sse, with the SDK's handlers. It listens on loopback only; TCP carries
// no peer credentials, so browsers are kept out by the Origin check (and
// the SDK's Host check, against DNS rebinding) and other local users by
// the optional bearer token.
const (
	// httpKeepAlive is how long an idle keep-alive connection stays open.
	httpKeepAlive = 15 * time.Second

	pathStreamable = "/mcp"
	pathSSE        = "/sse"

	sessionIDHeader = "Mcp-Session-Id"
)

// httpFront is the HTTP listener and its per-session bookkeeping.
type httpFront struct {
	ln    net.Listener
	conns *connLimit
	srv   *http.Server
	token []byte // nil: no token required
}

// httpSlot is one HTTP client's claim on a client slot, from the request
// that opens its session (a POST without session id, a GET on /sse) until
// the session ends, or until that request does when no session came of it.
type httpSlot struct {
	transport string // "http" or "sse"
	remote    string
	adopted   bool // a session took the slot; guarded by Server.mu
}

type slotKey struct{}

// loopbackAddr checks that addr is HOST:PORT with a loopback host, and
// returns it with localhost spelled as an address.
func loopbackAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("control: HTTP address %q: want HOST:PORT on loopback, e.g. 127.0.0.1:8765", addr)
	}
	if strings.EqualFold(host, "localhost") {
		host = "127.0.0.1"
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return "", fmt.Errorf("control: HTTP address %q is not a loopback address: the control plane serves HTTP on loopback only (127.0.0.1, ::1 or localhost)", addr)
	}
	if n, err := strconv.ParseUint(port, 10, 16); err != nil || (n == 0 && port != "0") {
		return "", fmt.Errorf("control: HTTP address %q: port %q is not a number from 0 to 65535", addr, port)
	}
	return net.JoinHostPort(host, port), nil
}

// Bounds on a bearer token: long enough not to be guessed (16 printable
// characters are over 100 bits), short enough to read whole.
const (
	minTokenBytes = 16
	maxTokenBytes = 4096
)

// readToken reads a bearer token file: its content, surrounding
// whitespace trimmed, which must leave one word of printable ASCII of
// minTokenBytes to maxTokenBytes. The file must be a regular file (a FIFO
// would hang the start, /dev/zero exhaust memory) that other users can
// neither read nor write, and its group cannot write.
func readToken(path string) ([]byte, error) {
	f, fi, err := boundedfile.Open(path, maxTokenBytes)
	if err != nil {
		return nil, fmt.Errorf("control: HTTP token file: %w", err)
	}
	defer f.Close()
	switch perm := fi.Mode().Perm(); {
	case perm&0o006 != 0:
		return nil, fmt.Errorf("control: HTTP token file %q has mode %04o: other users can read or change it; chmod o-rw (0600 or 0640)", path, perm)
	case perm&0o020 != 0:
		return nil, fmt.Errorf("control: HTTP token file %q has mode %04o: its group can change it; chmod g-w (0600 or 0640)", path, perm)
	}
	b, err := boundedfile.ReadAll(f, maxTokenBytes)
	if err != nil {
		return nil, fmt.Errorf("control: HTTP token file: %w", err)
	}
	tok := bytes.TrimSpace(b)
	if len(tok) == 0 {
		return nil, fmt.Errorf("control: HTTP token file %q is empty", path)
	}
	for _, c := range tok {
		if c < 0x21 || c > 0x7e {
			return nil, fmt.Errorf("control: HTTP token file %q: the token must be one line of printable ASCII without spaces", path)
		}
	}
	if len(tok) < minTokenBytes {
		return nil, fmt.Errorf("control: HTTP token file %q: the token has %d characters; use at least %d (e.g. head -c 24 /dev/urandom | base64 > FILE)", path, len(tok), minTokenBytes)
	}
	return tok, nil
}

// startHTTP binds the HTTP front. Errors name the address.
func (s *Server) startHTTP() error {
	addr, err := loopbackAddr(s.opts.HTTPAddr)
	if err != nil {
		return err
	}
	f := &httpFront{}
	if s.opts.HTTPTokenFile != "" {
		if f.token, err = readToken(s.opts.HTTPTokenFile); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("control: HTTP address %s is already in use", addr)
		}
		return fmt.Errorf("control: HTTP address %s: %w", addr, err)
	}
	f.conns = newConnLimit(s.opts.MaxHTTPConns, func(max int, dropped int64) {
		s.opts.Logger.Warn("control HTTP connections at their limit; closing new ones at once", "limit", max, "closed_so_far", dropped)
	})
	f.ln = ln
	getServer := func(*http.Request) *mcp.Server { return s.mcp }
	limit := int64(s.opts.MaxLineBytes)
	mux := http.NewServeMux()
	mux.Handle(pathStreamable, mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{MaxRequestBodyBytes: limit}))
	mux.Handle(pathSSE, mcp.NewSSEHandler(getServer, &mcp.SSEOptions{MaxRequestBodyBytes: limit}))
	f.srv = &http.Server{
		Handler: s.httpGuard(f, mux),
		// Streams stay open for as long as a client listens, so there is no
		// overall write timeout; every write has its own deadline instead.
		ReadHeaderTimeout: s.opts.HandshakeTimeout,
		IdleTimeout:       httpKeepAlive,
		ConnState:         f.conns.state,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          nil,
		BaseContext:       func(net.Listener) context.Context { return s.ctx },
	}
	s.httpf = f
	return nil
}

// serveHTTP runs the HTTP server until Close.
func (s *Server) serveHTTP() {
	defer s.wg.Done()
	if err := s.httpf.srv.Serve(s.httpf.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		s.opts.Logger.Warn("control HTTP server", "error", err)
	}
}

// HTTPAddr returns the address the HTTP front listens on ("" without
// one); with port 0 asked for, it has the port the system chose.
func (s *Server) HTTPAddr() string {
	if s.httpf == nil {
		return ""
	}
	return s.httpf.ln.Addr().String()
}

// where says where the server listens, for people: the socket, the
// HTTP endpoint, or both.
func (s *Server) where() string {
	var w []string
	if s.path != "" {
		w = append(w, "socket "+s.path)
	}
	if a := s.HTTPAddr(); a != "" {
		w = append(w, "http://"+a+pathStreamable)
	}
	return strings.Join(w, ", ")
}

// closeHTTP stops the listener, drops every connection (hanging streams
// included) and ends the HTTP sessions.
func (s *Server) closeHTTP() {
	if s.httpf == nil {
		return
	}
	s.httpf.srv.Close()
	s.mu.Lock()
	var open []*mcp.ServerSession
	for ss, sess := range s.sessions {
		if sess.slot != nil {
			open = append(open, ss)
		}
	}
	s.mu.Unlock()
	for _, ss := range open {
		ss.Close()
	}
}

// httpGuard checks every request before the SDK sees it: origin, token,
// client slots, body size and the same message checks as the socket's.
func (s *Server) httpGuard(f *httpFront, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); !originAllowed(origin) {
			s.opts.Logger.Warn("control HTTP request refused", "origin", origin, "remote", r.RemoteAddr)
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("Forbidden: origin %q is not allowed (only loopback origins may use this server)", origin), http.StatusForbidden)
			return
		}
		if f.token != nil && !bearerOK(r.Header.Get("Authorization"), f.token) {
			// No keep-alive for a client without the token: it must not
			// hold a connection it has no right to.
			w.Header().Set("Connection", "close")
			w.Header().Set("WWW-Authenticate", `Bearer realm="vmafsink"`)
			http.Error(w, "Unauthorized: this server needs the bearer token from its mcp-http-token-file", http.StatusUnauthorized)
			return
		}
		if r.URL.Path != pathStreamable && r.URL.Path != pathSSE {
			http.Error(w, fmt.Sprintf("Not Found: MCP is served at %s (Streamable HTTP) and %s (HTTP+SSE)", pathStreamable, pathSSE), http.StatusNotFound)
			return
		}
		var body []byte
		if r.Method == http.MethodPost {
			var ok bool
			if body, ok = s.vetBody(w, r); !ok {
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		// Requests that open a session claim a client slot. A request
		// without a session that is not initialize (a client probing with
		// server/discover first, as the SDK's does) gets a session that
		// ends with its reply, and no slot: otherwise the probe's slot
		// could still be held when the client's initialize comes.
		opens := (r.URL.Path == pathStreamable && r.Method == http.MethodPost && r.Header.Get(sessionIDHeader) == "" && initializes(body)) ||
			(r.URL.Path == pathSSE && r.Method == http.MethodGet)
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		if opens {
			transport := "http"
			if r.URL.Path == pathSSE {
				transport = "sse"
			}
			sl := &httpSlot{transport: transport, remote: r.RemoteAddr}
			if reason := s.claim(sl); reason != "" {
				s.opts.Logger.Warn("control client refused", "transport", transport, "remote", r.RemoteAddr, "reason", reason)
				writeRPCError(w, http.StatusServiceUnavailable, nil, RPCClientLimit, "connection refused: "+reason)
				return
			}
			defer s.unclaim(sl)
			ctx = context.WithValue(ctx, slotKey{}, sl)
		} else if id := r.Header.Get(sessionIDHeader); id != "" && r.URL.Path == pathStreamable {
			if s.touch(id, 1) {
				defer s.touch(id, -1)
			}
		}
		next.ServeHTTP(&deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), timeout: s.opts.WriteTimeout, cancel: cancel}, r.WithContext(ctx))
	})
}

// originAllowed accepts requests without Origin (not from a browser) and
// those from pages served on loopback; any other page is foreign.
func originAllowed(origin string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	h := u.Hostname()
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// bearerOK compares an Authorization header with the token in constant time.
func bearerOK(header string, token []byte) bool {
	scheme, got, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), token) == 1
}

// vetBody reads a POST body within the message limit and refuses what
// the socket refuses: oversized messages, overlong strings, numeric ids
// the SDK would answer under another id.
func (s *Server) vetBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	limit := int64(s.opts.MaxLineBytes)
	if r.ContentLength > limit {
		writeRPCError(w, http.StatusRequestEntityTooLarge, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message exceeds the %d-byte limit", limit))
		return nil, false
	}
	// The body has as long to arrive as the headers had: a client that
	// trickles it must not hold the connection (and its handler) for ever.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(s.opts.HandshakeTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	rc.SetReadDeadline(time.Time{})
	if err != nil {
		var mbe *http.MaxBytesError
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("Request Timeout: the body did not arrive within %v", s.opts.HandshakeTimeout), http.StatusRequestTimeout)
		} else if errors.As(err, &mbe) {
			writeRPCError(w, http.StatusRequestEntityTooLarge, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message exceeds the %d-byte limit", limit))
		} else {
			http.Error(w, "Bad Request: reading the body: "+err.Error(), http.StatusBadRequest)
		}
		return nil, false
	}
	msg := bytes.TrimSpace(body)
	if !json.Valid(msg) {
		return body, true // the SDK answers parse errors itself
	}
	msgs := []json.RawMessage{msg}
	if msg[0] == '[' {
		msgs = nil
		json.Unmarshal(msg, &msgs)
	}
	for _, m := range msgs {
		if raw, reason := checkID(m); reason != "" {
			writeRPCError(w, http.StatusBadRequest, raw, jsonrpc.CodeInvalidRequest, reason)
			return nil, false
		}
	}
	if n := longestString(msg); n > MaxStringBytes {
		var id json.RawMessage
		if len(msgs) == 1 {
			var probe struct {
				ID json.RawMessage `json:"id"`
			}
			json.Unmarshal(msgs[0], &probe)
			id = probe.ID
		}
		writeRPCError(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidParams, fmt.Sprintf("invalid params: a string of %d bytes; strings are at most %d bytes (names %d)", n, MaxStringBytes, MaxNameBytes))
		return nil, false
	}
	return body, true
}

// writeRPCError answers an HTTP request with a JSON-RPC error.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int64, message string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := rpcErrorLine(id, code, message)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// deadlineWriter puts a deadline on every write and flush, as the socket
// does: a client that stops reading a stream is cut off (its request is
// cancelled, which ends the stream) instead of blocking the writer.
type deadlineWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	cancel  context.CancelFunc
}

func (d *deadlineWriter) arm()    { d.rc.SetWriteDeadline(time.Now().Add(d.timeout)) }
func (d *deadlineWriter) disarm() { d.rc.SetWriteDeadline(time.Time{}) }

func (d *deadlineWriter) fail(err error) error {
	if err != nil {
		d.cancel()
	}
	return err
}

func (d *deadlineWriter) Write(p []byte) (int, error) {
	d.arm()
	n, err := d.ResponseWriter.Write(p)
	d.disarm()
	return n, d.fail(err)
}

func (d *deadlineWriter) FlushError() error {
	d.arm()
	err := d.rc.Flush()
	d.disarm()
	return d.fail(err)
}

func (d *deadlineWriter) Unwrap() http.ResponseWriter { return d.ResponseWriter }

// initializes reports whether a JSON-RPC message or batch holds an
// initialize request.
func initializes(body []byte) bool {
	msg := bytes.TrimSpace(body)
	msgs := []json.RawMessage{msg}
	if len(msg) > 0 && msg[0] == '[' {
		msgs = nil
		if json.Unmarshal(msg, &msgs) != nil {
			return false
		}
	}
	for _, m := range msgs {
		var head struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(m, &head) == nil && head.Method == "initialize" {
			return true
		}
	}
	return false
}
