package control

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// wireConn sits between a socket and the SDK's newline-delimited transport.
// The SDK ends a session on any line it cannot decode; wireConn answers such
// lines itself with a JSON-RPC error and passes on only well-formed messages,
// so bad input costs the client one error reply, not its session. It also
// bounds line length and puts a deadline on every write, so a client that
// stops reading is cut off instead of blocking its writers forever.
type wireConn struct {
	conn    streamConn
	r       *bufio.Reader
	maxLine int
	timeout time.Duration

	pending []byte // validated line not yet handed to the SDK
	line    []byte // line being assembled

	// batchOK is set when the client's initialize asks for a protocol
	// version that still has JSON-RPC batches; later versions end the
	// session on a batch, so those are refused here.
	batchOK  bool
	initSeen bool // only the first initialize counts; the SDK refuses others

	// awaiting is set until the client opens its session: initialize,
	// or in the protocol versions without it, its first request.
	awaiting     atomic.Bool
	handshakeFor time.Duration
	// lastActive is when the client's latest message arrived (Unix
	// nanoseconds), for reclaiming idle clients when slots are short.
	lastActive atomic.Int64
	// opened is set once the client has opened its session.
	opened atomic.Bool
	// onReadEnd, if set, runs when the client's side ends, before the
	// server says why; onClose, if set, runs before the socket closes.
	// The server frees the connection's slot in both, so that whatever
	// tells the client its connection has ended (a closing reply, EOF)
	// comes after the slot is free and a client reconnecting at once is
	// not refused for want of it. Each must tolerate running twice.
	onReadEnd func()
	onClose   func()
	// gate, if set, holds reading until it is closed: until the server
	// has registered the session the client's messages are for.
	gate chan struct{}

	wmu       sync.Mutex
	closeOnce sync.Once
	closeErr  error

	// ids holds the requests handed to the SDK and not yet answered
	// (see wire_ids.go).
	ids inFlightIDs
}

// streamConn is what a wireConn runs over: a socket, or standard input
// and output (whose deadlines do nothing).
type streamConn interface {
	io.ReadWriteCloser
	SetReadDeadline(time.Time) error
	SetWriteDeadline(time.Time) error
}

func newWireConn(c streamConn, maxLine int, timeout time.Duration) *wireConn {
	w := &wireConn{conn: c, r: bufio.NewReaderSize(c, 64<<10), maxLine: maxLine, timeout: timeout}
	w.lastActive.Store(time.Now().UnixNano())
	return w
}

// handshakeBy sets the deadline for the client's initialize, d from now.
func (w *wireConn) handshakeBy(d time.Duration) {
	w.handshakeFor = d
	w.awaiting.Store(true)
	w.conn.SetReadDeadline(time.Now().Add(d))
}

// handshakeDone lifts the deadline: a client that has opened its session
// may stay idle (a watcher waits for notifications).
func (w *wireConn) handshakeDone() {
	if w.awaiting.Swap(false) {
		w.conn.SetReadDeadline(time.Time{})
	}
}

// Read hands the SDK whole validated lines.
func (w *wireConn) Read(p []byte) (int, error) {
	if w.gate != nil {
		<-w.gate
	}
	for len(w.pending) == 0 {
		line, err := w.nextLine()
		if err != nil {
			if w.onReadEnd != nil {
				w.onReadEnd()
			}
			var ne net.Error
			if w.awaiting.Load() && errors.As(err, &ne) && ne.Timeout() {
				w.reply(nil, jsonrpc.CodeInvalidRequest, "no initialize within the handshake timeout; closing the connection")
				err = fmt.Errorf("control: client sent no initialize in time: %w", err)
			}
			return 0, err
		}
		w.pending = line
	}
	n := copy(p, w.pending)
	w.pending = w.pending[n:]
	return n, nil
}

// nextLine returns the next acceptable message with its newline, answering
// unacceptable ones on the way.
func (w *wireConn) nextLine() ([]byte, error) {
	for {
		line, oversized, err := w.readLine()
		if oversized {
			if werr := w.reply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message exceeds the %d-byte limit", w.maxLine)); werr != nil {
				return nil, werr
			}
		} else if msg := bytes.TrimSpace(line); len(msg) > 0 {
			out, id, code, reason := w.check(msg)
			switch {
			case code == 0 && out != nil:
				return out, nil
			case code != 0:
				if werr := w.reply(id, code, reason); werr != nil {
					return nil, werr
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
}

// readLine reads up to the next newline. A line longer than maxLine is
// consumed and reported as oversized without being kept.
func (w *wireConn) readLine() (line []byte, oversized bool, err error) {
	w.line = w.line[:0]
	for {
		frag, err := w.r.ReadSlice('\n')
		if !oversized {
			if len(w.line)+len(frag) > w.maxLine+1 { // +1: the newline
				oversized = true
				w.line = w.line[:0]
			} else {
				w.line = append(w.line, frag...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && len(w.line) == 0 && !oversized {
			return nil, false, err
		}
		if err == io.EOF {
			// A last line without newline still counts; EOF follows.
			return w.line, oversized, nil
		}
		return w.line, oversized, err
	}
}

// check classifies one message: code 0 accepts it, and out is what to
// hand the SDK for it (nothing when the message is dropped); otherwise code and reason say why not, and id is
// the request's id when it could be read.
func (w *wireConn) check(msg []byte) (out []byte, id any, code int64, reason string) {
	if !json.Valid(msg) {
		var raw json.RawMessage
		err := json.Unmarshal(msg, &raw)
		return nil, nil, jsonrpc.CodeParseError, fmt.Sprintf("parse error: %v", err)
	}
	if msg[0] == '[' {
		return w.checkBatch(msg)
	}
	if raw, reason := checkID(msg); reason != "" {
		return nil, raw, jsonrpc.CodeInvalidRequest, reason
	}
	if n := longestString(msg); n > MaxStringBytes {
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal(msg, &probe)
		if len(probe.ID) > 0 && (probe.ID[0] == '"' || probe.ID[0] == '-' || probe.ID[0] >= '0' && probe.ID[0] <= '9') {
			id = probe.ID
		}
		return nil, id, jsonrpc.CodeInvalidParams, fmt.Sprintf("invalid params: a string of %d bytes; strings are at most %d bytes (names %d)", n, MaxStringBytes, MaxNameBytes)
	}
	m, err := jsonrpc.DecodeMessage(msg)
	if err != nil {
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal(msg, &probe)
		if len(probe.ID) > 0 && (probe.ID[0] == '"' || probe.ID[0] == '-' || probe.ID[0] >= '0' && probe.ID[0] <= '9') {
			id = probe.ID
		}
		return nil, id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: %v", err)
	}
	w.lastActive.Store(time.Now().UnixNano())
	if req, ok := m.(*jsonrpc.Request); ok {
		if req.Method == "notifications/cancelled" && !w.ids.cancel(req.Params) {
			// It names no request in flight: the SDK, which handles
			// notifications beside requests, could otherwise apply it to
			// a later request that reuses the id. Dropped, as the
			// protocol allows.
			return nil, nil, 0, ""
		}
		if req.IsCall() {
			if rawID, reason := w.ids.start(msg); reason != "" {
				return nil, rawID, jsonrpc.CodeInvalidRequest, reason
			}
		}
		if req.Method == "initialize" && !w.initSeen {
			w.initSeen = true
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			json.Unmarshal(req.Params, &p)
			w.batchOK = p.ProtocolVersion == "2024-11-05" || p.ProtocolVersion == "2025-03-26"
			w.handshakeDone()
			w.opened.Store(true)
		} else if req.IsCall() && sessionless(req.Params) {
			// A sessionless client may think between requests for as
			// long as a session's client; like one, it is reclaimed
			// when idle and slots are short (slots.go).
			w.handshakeDone()
			w.opened.Store(true)
		}
	}
	return append(msg, '\n'), nil, 0, ""
}

// longestString returns the length in bytes of the longest string (key or
// value, escapes as sent) in a valid JSON text, without decoding it.
func longestString(msg []byte) int {
	longest, start, in, esc := 0, 0, false, false
	for i, c := range msg {
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			if in {
				longest = max(longest, i-start)
			}
			in, start = !in, i+1
		}
	}
	return longest
}

// sessionless reports whether a request follows the protocol versions
// without initialize (SEP-2575), which carry the version in every request.
func sessionless(params json.RawMessage) bool {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	_, ok := p.Meta["io.modelcontextprotocol/protocolVersion"]
	return ok
}

// maxExactID is the largest integer id the SDK echoes unchanged: it decodes
// ids as float64 and answers with their int64 conversion, so 1.5 came back
// as 1 and 2^70 as -2^63.
const maxExactID = 1 << 53

// checkID refuses a message whose id the SDK would answer under another
// id; reason says which id, and raw is that id as sent, to answer it with.
func checkID(msg []byte) (raw json.RawMessage, reason string) {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &probe) != nil || len(probe.ID) == 0 {
		return nil, ""
	}
	c := probe.ID[0]
	if c != '-' && (c < '0' || c > '9') {
		return nil, "" // a string, null, or a type the SDK refuses itself
	}
	if n, err := strconv.ParseInt(string(probe.ID), 10, 64); err == nil && n >= -maxExactID && n <= maxExactID &&
		strconv.FormatInt(n, 10) == string(probe.ID) { // -0 would come back as 0
		return nil, ""
	}
	if len(probe.ID) > maxQuotedID {
		return nil, fmt.Sprintf("invalid request: a numeric id of %d digits is not an integer within ±2^53 (use a string, or an integer in that range)", len(probe.ID))
	}
	return probe.ID, fmt.Sprintf("invalid request: id %s is not an integer within ±2^53 (use a string, or an integer in that range)", probe.ID)
}

// maxQuotedID bounds a refused id that is echoed back: a longer one is
// answered with a null id, as one that cannot be read.
const maxQuotedID = 64

// checkBatch vets a batch. The SDK ends the session on a batch it cannot
// take apart (an id used twice; two notifications, whose empty ids it
// takes for a repeated one), so such batches are refused, or rewritten:
// notifications need no reply, so they go on as lines of their own and
// the requests stay a batch, answered as one.
func (w *wireConn) checkBatch(msg []byte) (out []byte, id any, code int64, reason string) {
	var batch []json.RawMessage
	if err := json.Unmarshal(msg, &batch); err != nil || len(batch) == 0 {
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: empty batch"
	}
	if !w.batchOK {
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not part of the negotiated protocol version"
	}
	ids := make(map[jsonrpc.ID]bool, len(batch))
	var calls, notes []json.RawMessage
	for _, raw := range batch {
		if rawID, reason := checkID(raw); reason != "" {
			return nil, rawID, jsonrpc.CodeInvalidRequest, reason
		}
		m, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			return nil, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request in batch: %v", err)
		}
		if req, ok := m.(*jsonrpc.Request); ok {
			if !req.IsCall() {
				notes = append(notes, raw)
				continue
			}
			if ids[req.ID] {
				return nil, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: id %v appears twice in the batch", req.ID.Raw())
			}
			ids[req.ID] = true
		}
		calls = append(calls, raw)
	}
	for i, raw := range calls {
		if rawID, reason := w.ids.start(raw); reason != "" {
			for _, started := range calls[:i] {
				w.ids.forget(started)
			}
			return nil, rawID, jsonrpc.CodeInvalidRequest, reason
		}
	}
	if len(notes) < 2 {
		return append(msg, '\n'), nil, 0, ""
	}
	for _, n := range notes {
		out = append(append(out, n...), '\n')
	}
	if len(calls) > 0 {
		b, _ := json.Marshal(calls)
		out = append(append(out, b...), '\n')
	}
	return out, nil, 0, ""
}

// reply writes a JSON-RPC error response for a message the SDK never saw.
func (w *wireConn) reply(id any, code int64, message string) error {
	b, err := rpcErrorLine(id, code, message)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// rpcErrorLine encodes a JSON-RPC error response, newline-terminated, for
// the refusals the server answers itself, on the socket and over HTTP alike.
// A nil id is encoded as null, as JSON-RPC asks when the id is unknown.
func rpcErrorLine(id any, code int64, message string) ([]byte, error) {
	b, err := json.Marshal(struct {
		Version string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{Version: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Write sends one whole message (the SDK writes each in one call), so
// messages from the SDK and from reply never interleave. A reply to a
// cancelled request is dropped.
func (w *wireConn) Write(p []byte) (int, error) {
	if w.ids.answered(p) {
		return len(p), nil
	}
	bufs := net.Buffers{p}
	if err := w.writeLines(&bufs); err != nil {
		return len(p) - bufLen(bufs), err
	}
	return len(p), nil
}

// writeLines writes whole lines in one go (writev), under the lock that
// keeps messages whole. It consumes bufs. The client is given up on only
// when the timeout passes with nothing written: the deadline starts again
// whenever bytes move, so a client that reads a long batch slowly is kept,
// and one that has stopped reading is not.
func (w *wireConn) writeLines(bufs *net.Buffers) error {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	for {
		if w.timeout > 0 {
			w.conn.SetWriteDeadline(time.Now().Add(w.timeout))
		}
		n, err := bufs.WriteTo(w.conn)
		if err == nil {
			return nil
		}
		if n == 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("control: writing to client: %w", err)
		}
	}
}

func bufLen(bufs net.Buffers) int {
	n := 0
	for _, b := range bufs {
		n += len(b)
	}
	return n
}

// Close closes the socket once; the SDK closes reader and writer
// separately. onClose runs first: no caller may hold the server's lock.
func (w *wireConn) Close() error {
	w.closeOnce.Do(func() {
		if w.onClose != nil {
			w.onClose()
		}
		w.closeErr = w.conn.Close()
	})
	return w.closeErr
}
