package control

import (
	"io"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioTransport serves MCP on a process's standard input and output with
// the line checks the control socket applies (wire.go): a malformed line,
// an unwanted batch, an id the SDK would answer under another id, an id
// already in flight or an oversized line (over maxLine bytes) gets a
// JSON-RPC error and the session goes on, where the SDK's own transport
// would end it; a cancellation drops only the reply of a request still in
// flight. The SDK ends a session on the first line it cannot decode, and a
// stdio server has only the one session.
func StdioTransport(in io.Reader, out io.Writer, maxLine int) mcp.Transport {
	w := newWireConn(stdioConn{in, out}, maxLine, 0)
	return &mcp.IOTransport{Reader: w, Writer: w, MaxLineLength: -1}
}

// stdioConn is standard input and output as a wireConn's stream; pipes
// have no deadlines here, and closing is the host's business.
type stdioConn struct {
	io.Reader
	io.Writer
}

func (stdioConn) Close() error                     { return nil }
func (stdioConn) SetReadDeadline(time.Time) error  { return nil }
func (stdioConn) SetWriteDeadline(time.Time) error { return nil }
