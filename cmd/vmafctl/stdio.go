package main

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"time"
)

// stdin is what the stdio bridge reads; tests replace it.
var stdin io.Reader = os.Stdin

// Once the host's input has ended, the bridge still relays what the
// server sends (replies to the last requests) until the server has been
// quiet for drainQuiet, or for at most drainWait. The connection stays
// open meanwhile: on end of input the server would end the session and
// drop replies still being computed.
const (
	drainQuiet = 250 * time.Millisecond
	drainWait  = 2 * time.Second
)

// cmdStdio bridges standard input and output to the control socket, byte
// for byte, so that a host that starts MCP servers as subprocesses (Claude
// Desktop, Claude Code, the MCP Inspector) reaches a running measurement
// with this one binary. It ends with status 0 when either side closes: the
// host closing stdin (after the replies still in flight), stdout going
// away, or the server closing.
func cmdStdio(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
	fs := flags("stdio", &g, stderr)
	if _, err := parse(fs, args); err != nil {
		return report(stderr, err)
	}
	c, err := dial(ctx, g)
	if err != nil {
		return report(stderr, err)
	}
	conn := c.(*net.UnixConn)
	defer conn.Close()

	fromServer := make(chan error, 1)
	relayed := make(chan struct{}, 1)
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := conn.Read(buf)
			if n > 0 {
				if _, werr := stdout.Write(buf[:n]); werr != nil {
					fromServer <- werr
					return
				}
				select {
				case relayed <- struct{}{}:
				default:
				}
			}
			if err != nil {
				fromServer <- err
				return
			}
		}
	}()
	fromHost := make(chan error, 1)
	go func() {
		_, err := io.Copy(conn, stdin)
		fromHost <- err
	}()

	select {
	case <-fromServer:
		// The server closed (or stdout went away): nothing more can be
		// relayed. A read of stdin still blocked is left to the exit.
		return exitOK
	case err := <-fromHost:
		if err != nil && !errors.Is(err, net.ErrClosed) {
			// The socket refused a write: the server is gone.
			return exitOK
		}
	case <-ctx.Done():
		return exitOK
	}
	quiet := time.NewTimer(drainQuiet)
	defer quiet.Stop()
	deadline := time.After(drainWait)
	for {
		select {
		case <-relayed:
			quiet.Reset(drainQuiet)
		case <-fromServer:
			return exitOK
		case <-quiet.C:
			return exitOK
		case <-deadline:
			return exitOK
		case <-ctx.Done():
			return exitOK
		}
	}
}
