package control

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressEvery spaces the notifications/progress a waiting command sends.
const progressEvery = 100 * time.Millisecond

func (s *Server) toolSwap(ctx context.Context, req *mcp.CallToolRequest, in swapArgs) (*mcp.CallToolResult, Command, error) {
	c := s.caller(req)
	if err := s.mayCommand(ctx, toolSwap, c); err != nil {
		return nil, Command{}, err
	}
	var err error
	switch {
	case strings.TrimSpace(in.Model) == "":
		err = Errorf(CodeBadRequest, "model is empty")
	case len(in.Model) > MaxStringBytes:
		err = Errorf(CodeBadRequest, "model is %d bytes; at most %d", len(in.Model), MaxStringBytes)
	case len(in.Name) > MaxNameBytes:
		err = Errorf(CodeBadRequest, "name is %d bytes; at most %d", len(in.Name), MaxNameBytes)
	}
	if err != nil {
		s.audit(ctx, toolSwap, c, "refused", "model", logString(in.Model), "reason", err.Error())
		return nil, Command{}, err
	}
	cmd, err := s.target.RequestSwap(ctx, in.Model, in.Name)
	if err != nil {
		s.audit(ctx, toolSwap, c, "refused", "model", logString(in.Model), "reason", err.Error())
		return nil, s.stamp(cmd), err
	}
	args := []any{"model", logString(in.Model), "name", logString(in.Name), "command", cmd.ID, "to", cmd.Model}
	if cmd.MismatchedModelWarning != "" {
		args = append(args, "warning", cmd.MismatchedModelWarning)
	}
	s.audit(ctx, toolSwap, c, "enqueued", args...)
	if !in.Wait {
		return nil, s.stamp(cmd), nil
	}
	res, got, err := s.wait(ctx, req, cmd, in.TimeoutMS)
	// The warning is the request's: the target's later views of the
	// command do not repeat it.
	if got.MismatchedModelWarning == "" {
		got.MismatchedModelWarning = cmd.MismatchedModelWarning
	}
	return res, s.stamp(got), err
}

func (s *Server) toolCommand(tool string, do func(context.Context) (Command, error)) mcp.ToolHandlerFor[commandArgs, Command] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in commandArgs) (*mcp.CallToolResult, Command, error) {
		c := s.caller(req)
		if err := s.mayCommand(ctx, tool, c); err != nil {
			return nil, Command{}, err
		}
		cmd, err := do(ctx)
		if err != nil {
			s.audit(ctx, tool, c, "refused", "reason", err.Error())
			return nil, s.stamp(cmd), err
		}
		s.audit(ctx, tool, c, "enqueued", "command", cmd.ID)
		if !in.Wait {
			return nil, s.stamp(cmd), nil
		}
		res, got, err := s.wait(ctx, req, cmd, in.TimeoutMS)
		return res, s.stamp(got), err
	}
}

// wait blocks until cmd is applied, the timeout passes, the client goes
// away or the server shuts down. When the request carries a progress
// token, the client hears how the wait goes meanwhile.
func (s *Server) wait(ctx context.Context, req *mcp.CallToolRequest, cmd Command, timeoutMS int) (*mcp.CallToolResult, Command, error) {
	if cmd.Status != CommandEnqueued {
		return nil, cmd, nil
	}
	d := 30 * time.Second
	if timeoutMS > 0 {
		d = time.Duration(timeoutMS) * time.Millisecond
	}
	d = min(d, s.opts.MaxWait)
	reqCtx := ctx
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()
	p := s.startProgress(ctx, req, cmd)
	got, err := s.target.Wait(ctx, cmd.ID)
	p.stop(reqCtx, got, err)
	if err != nil {
		if reqCtx.Err() != nil {
			// The client cancelled or left: not a timeout.
			return nil, cmd, reqCtx.Err()
		}
		if ctx.Err() != nil && s.ctx.Err() == nil {
			return nil, cmd, Errorf(CodeTimeout, "command %d still %s after %v", cmd.ID, cmd.Status, d)
		}
		return nil, cmd, err
	}
	if got.Status == CommandFailed {
		return nil, got, fmt.Errorf("command %d failed: %s", got.ID, got.Error)
	}
	return nil, got, nil
}

// progress sends notifications/progress for one waiting command: at
// once, every progressEvery while it waits, and once when the wait ends,
// each saying how many commands are queued and how many frames went by.
// Progress is the milliseconds waited, which only grows; the total is
// unknown (the next frame boundary comes when the stream brings it).
type progress struct {
	s       *Server
	ss      *mcp.ServerSession
	token   any
	cmd     Command
	start   time.Time
	frames0 uint64

	mu   sync.Mutex // serialises sends, so progress keeps growing
	last float64
	done chan struct{}
	wg   sync.WaitGroup
}

func (s *Server) startProgress(ctx context.Context, req *mcp.CallToolRequest, cmd Command) *progress {
	p := &progress{s: s, cmd: cmd, start: time.Now(), done: make(chan struct{})}
	if req == nil || req.Params == nil {
		return p
	}
	if p.token = req.Params.GetProgressToken(); p.token == nil || req.Session == nil {
		return p
	}
	p.ss = req.Session
	st := s.target.Status()
	p.frames0 = st.FramesReceived
	p.send(ctx, p.waiting(st))
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-p.done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				p.send(ctx, p.waiting(s.target.Status()))
			}
		}
	}()
	return p
}

func (p *progress) waiting(st Status) string {
	return fmt.Sprintf("%s %d enqueued, waiting for the next frame boundary: %d commands pending, %d frame pairs received since the request, stream %s",
		p.cmd.Kind, p.cmd.ID, st.CommandsPending, st.FramesReceived-min(st.FramesReceived, p.frames0), st.State)
}

// stop ends the periodic notifications and sends the last one.
func (p *progress) stop(ctx context.Context, got Command, err error) {
	if p.ss == nil {
		return
	}
	close(p.done)
	p.wg.Wait()
	if ctx.Err() != nil {
		return
	}
	msg := fmt.Sprintf("%s %d %s", p.cmd.Kind, p.cmd.ID, got.Status)
	switch {
	case err != nil:
		msg = fmt.Sprintf("%s %d: stopped waiting: %v", p.cmd.Kind, p.cmd.ID, err)
	case got.Status == CommandApplied:
		msg += " at frame " + strconv.FormatInt(got.Frame, 10)
	case got.Error != "":
		msg += ": " + got.Error
	}
	p.send(ctx, msg)
}

func (p *progress) send(ctx context.Context, msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v := float64(time.Since(p.start).Milliseconds())
	if v <= p.last {
		v = p.last + 1
	}
	p.last = v
	// A client that cannot take a notification will not take the reply
	// either; the wire's write timeout bounds this.
	p.ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: p.token, Progress: v, Message: msg})
}

// logString bounds and quotes a client's string for a log line: one
// line, whatever the client sent.
func logString(v string) string {
	const max = 256
	if len(v) > max {
		return strconv.Quote(v[:max]) + "..."
	}
	return strconv.Quote(v)
}
