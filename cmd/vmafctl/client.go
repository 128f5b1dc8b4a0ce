package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/control/subscribe"
	"github.com/vmafsink/vmafsink/internal/version"
)

// codedError carries the exit code a failure maps to.
type codedError struct {
	code int
	err  error
}

func (e *codedError) Error() string { return e.err.Error() }
func (e *codedError) Unwrap() error { return e.err }

// noReply marks a call the server never answered (the connection failed
// or the wait ran out), as against an error the tool itself returned.
type noReply struct{ err error }

func (e noReply) Error() string { return e.err.Error() }
func (e noReply) Unwrap() error { return e.err }

func fail(code int, format string, args ...any) error {
	return &codedError{code, fmt.Errorf(format, args...)}
}

// report prints err and returns its exit code.
func report(stderr io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "vmafctl:", err)
	var e *codedError
	if errors.As(err, &e) {
		return e.code
	}
	return exitError
}

// toolCodes maps the server's error codes to exit codes.
var toolCodes = map[string]int{
	control.CodeUnknownModel:     exitRefused,
	control.CodeInvalidModel:     exitRefused,
	control.CodeUnsupportedModel: exitRefused,
	control.CodeForbiddenPath:    exitRefused,
	control.CodeBadRequest:       exitRefused,
	control.CodeReadOnly:         exitRefused,
	control.CodeQueueFull:        exitBusy,
	control.CodeBusy:             exitBusy,
	control.CodeTimeout:          exitTimeout,
	control.CodeFinished:         exitFinished,
}

// session is an MCP session with the control socket.
type session struct {
	cs   *mcp.ClientSession
	acks *subscribe.Acks
}

func connect(ctx context.Context, g globals, opts *mcp.ClientOptions) (*session, error) {
	conn, err := dial(ctx, g)
	if err != nil {
		return nil, err
	}
	socket := g.socket
	c := mcp.NewClient(&mcp.Implementation{Name: "vmafctl", Version: version.String()}, opts)
	acks := subscribe.New()
	c.AddReceivingMiddleware(acks.Middleware)
	sniff := &firstLine{r: conn}
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: sniff, Writer: &refusalWriter{conn, sniff}}, nil)
	if err != nil {
		conn.Close()
		if reason := sniff.refusal(); reason != "" {
			return nil, fail(exitRefused, "%s refused the connection: %s", socket, reason)
		}
		return nil, fail(exitConnect, "no MCP server on %s: %v", socket, err)
	}
	return &session{cs: cs, acks: acks}, nil
}

// dial connects to the control socket and checks who serves it.
func dial(ctx context.Context, g globals) (net.Conn, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", g.socket)
	if err != nil {
		return nil, fail(exitConnect, "cannot reach %s: %v", g.socket, err)
	}
	if err := checkServer(conn, g.socket, g.serverUID); err != nil {
		conn.Close()
		return nil, fail(exitRefused, "%v", err)
	}
	return conn, nil
}

// firstLine keeps the start of what the server sends, so that a refusal
// (peer not allowed, client limit), which the server sends as an error
// without id before it hangs up, can be told from a socket without a
// server behind it.
type firstLine struct {
	r    io.ReadCloser
	mu   sync.Mutex
	head []byte
}

const maxRefusalLine = 4096

func (f *firstLine) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	f.mu.Lock()
	if room := maxRefusalLine - len(f.head); room > 0 {
		f.head = append(f.head, p[:min(n, room)]...)
	}
	f.mu.Unlock()
	return n, err
}

func (f *firstLine) Close() error { return f.r.Close() }

// refusalWriter writes to the server; when a write fails because the
// server has hung up, it reads what the server said before it did, which
// the client would otherwise never read.
type refusalWriter struct {
	conn  net.Conn
	sniff *firstLine
}

func (w *refusalWriter) Write(p []byte) (int, error) {
	n, err := w.conn.Write(p)
	if err != nil {
		w.conn.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		buf := make([]byte, maxRefusalLine)
		w.sniff.Read(buf)
	}
	return n, err
}

func (w *refusalWriter) Close() error { return w.conn.Close() }

// refusal returns the server's reason if its first message was a refusal.
func (f *firstLine) refusal() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	line, _, _ := bytes.Cut(f.head, []byte("\n"))
	var m struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(line, &m) != nil || m.Error == nil || (len(m.ID) > 0 && string(m.ID) != "null") {
		return ""
	}
	return m.Error.Message
}

func (s *session) close() { s.cs.Close() }

// call runs a tool and decodes its structured result into out. A tool
// error becomes an exitError with the code its text starts with.
func (s *session) call(ctx context.Context, tool string, args map[string]any, out any) error {
	_, err := s.callResult(ctx, tool, args, out)
	return err
}

// callResult is call that also returns the whole result, for the content
// blocks (images) beside the structured reply.
func (s *session) callResult(ctx context.Context, tool string, args map[string]any, out any) (*mcp.CallToolResult, error) {
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		if ctx.Err() != nil {
			return nil, fail(exitTimeout, "%s: timed out waiting for the server", tool)
		}
		return nil, fail(exitError, "%s: %w", tool, noReply{err})
	}
	if res.IsError {
		text := contentText(res)
		code := exitError
		if c, _, ok := strings.Cut(text, ":"); ok {
			if mapped, ok := toolCodes[c]; ok {
				code = mapped
			}
		}
		return nil, fail(code, "%s", text)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, fail(exitError, "%s: %v", tool, err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return nil, fail(exitError, "%s: unexpected reply %s: %v", tool, b, err)
	}
	return res, nil
}

func contentText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, " ")
}

// flags makes a subcommand's flag set; every one takes -json.
func flags(name string, g *globals, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("vmafctl "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&g.json, "json", g.json, "print JSON")
	return fs
}

// parse parses a subcommand's arguments, allowing flags after positional
// ones ("swap MODEL -wait"), and returns the positional ones.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, &codedError{exitUsage, err}
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// follow connects for a command that stays subscribed: connecting, and
// each subscribe, get g.timeout; the session itself has no deadline.
func follow(ctx context.Context, g globals, opts *mcp.ClientOptions) (*session, error) {
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	return connect(ctx, g, opts)
}

// subscribe subscribes to uri, waiting at most timeout for the answer.
func (s *session) subscribe(ctx context.Context, uri string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// In force when this returns: wait-alert looks after subscribing and
	// relies on every later change being notified.
	return s.acks.Subscribe(ctx, s.cs, uri)
}

// ended is closed once the session is over (the server went away).
func (s *session) ended() <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		s.cs.Wait()
		close(ch)
	}()
	return ch
}

// withSession connects, runs f with a deadline of g.timeout, and closes.
func withSession(ctx context.Context, g globals, f func(ctx context.Context, s *session) error) error {
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	s, err := connect(ctx, g, nil)
	if err != nil {
		return err
	}
	defer s.close()
	return f(ctx, s)
}

func printJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}
