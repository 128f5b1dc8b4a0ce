package control

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Roles. Over the Unix socket a peer's role comes from SO_PEERCRED, which
// it cannot forge: the server's own user and members of AllowGID have
// full access; members of ReadOnlyGID may read (status, scores, models,
// resources, subscriptions) but not swap, pause or resume. Membership is
// by primary group, the only group SO_PEERCRED reports (a process's
// supplementary groups could be read from /proc/PID/status, but a pid can
// be reused by another process between connect and that read, so they are
// not trusted). HTTP has no peer credentials: whoever reaches the port
// (and holds the bearer token, when there is one) has full access.
const (
	roleNone     = ""          // refused at connect
	roleFull     = "full"      // may read and command
	roleReadOnly = "read_only" // may read only
)

// role is what p may do on a server run by uid.
func (p peer) role(uid, allowGID, readOnlyGID int) string {
	switch {
	case int(p.uid) == uid:
		return roleFull
	case allowGID >= 0 && int(p.gid) == allowGID:
		return roleFull
	case readOnlyGID >= 0 && int(p.gid) == readOnlyGID:
		return roleReadOnly
	}
	return roleNone
}

func (s *Server) readOnlyGID() int {
	if s.opts.ReadOnlyGID > 0 {
		return s.opts.ReadOnlyGID
	}
	return -1
}

// peerRole is p's role on this server.
func (s *Server) peerRole(p peer) string { return p.role(s.uid, s.allowGID(), s.readOnlyGID()) }

// socketAccess is the group the socket file is given to (-1: none) and
// whether it must be open to every local user: a file has one group, so
// with both an allowed and a read-only group its mode is 0666 and the
// SO_PEERCRED check alone tells the peers apart (it refuses everyone else
// at connect, before the MCP handshake).
func (s *Server) socketAccess() (gid int, world bool) {
	full, ro := s.allowGID(), s.readOnlyGID()
	switch {
	case full >= 0 && ro >= 0 && full != ro:
		return full, true
	case full >= 0:
		return full, false
	}
	return ro, false
}

// caller is who sent a request, for the audit log and the role check.
type caller struct {
	transport string // uds, http or sse
	peer      peer   // over uds
	remote    string // over HTTP: the client's address
	role      string
}

func (s *Server) caller(req *mcp.CallToolRequest) caller {
	var sess *session
	if req != nil {
		sess = s.lookup(req.Session)
	}
	switch {
	case sess == nil:
		// Not a session of ours (an in-process transport in tests).
		return caller{transport: "unknown", role: roleFull}
	case sess.slot != nil:
		return caller{transport: sess.slot.transport, remote: sess.slot.remote, role: roleFull}
	}
	return caller{transport: "uds", peer: sess.peer, role: s.peerRole(sess.peer)}
}

// attrs are the caller's fields for a log record.
func (c caller) attrs() []any {
	if c.transport == "uds" {
		return []any{"transport", c.transport, "pid", c.peer.pid, "uid", c.peer.uid, "gid", c.peer.gid, "role", c.role}
	}
	return []any{"transport", c.transport, "remote", c.remote, "role", c.role}
}

func (c caller) String() string {
	if c.transport == "uds" {
		return fmt.Sprintf("peer pid %d uid %d gid %d", c.peer.pid, c.peer.uid, c.peer.gid)
	}
	return c.transport + " client " + c.remote
}

// mayCommand refuses a read-only caller a command tool, with a reason
// that names the group, and logs the refusal.
func (s *Server) mayCommand(ctx context.Context, tool string, c caller) error {
	if c.role != roleReadOnly {
		return nil
	}
	err := Errorf(CodeReadOnly, "%s has read-only access (primary group %d is mcp-readonly-gid); %s needs full access: the server's user or mcp-allow-gid",
		c, c.peer.gid, tool)
	s.audit(ctx, tool, c, "refused", "reason", err.Error())
	return err
}

// audit logs one command request: who asked, what, and what came of it,
// at Info (the element's GStreamer debug category at level INFO, and
// vmaf-score's --control-log).
func (s *Server) audit(ctx context.Context, tool string, c caller, outcome string, args ...any) {
	s.opts.Logger.Log(ctx, slog.LevelInfo, "control command", append(append([]any{"tool", tool, "outcome", outcome}, c.attrs()...), args...)...)
}

// warnHTTPRoles says at start when HTTP undoes a read-only group: HTTP has
// no peer credentials, so whoever reaches its port (with the token, if
// one is set) has full access, the read-only group's members included.
func (s *Server) warnHTTPRoles() {
	if s.readOnlyGID() < 0 {
		return
	}
	if s.opts.HTTPTokenFile == "" {
		s.opts.Logger.Warn("control HTTP has no token file: any local user, members of the read-only group included, gets full access (swap, pause, resume) over HTTP; give a token file, or serve the read-only group on the socket alone",
			"read_only_gid", s.opts.ReadOnlyGID, "http", s.opts.HTTPAddr)
		return
	}
	s.opts.Logger.Warn("control HTTP gives full access to whoever holds the token: do not give it to members of the read-only group",
		"read_only_gid", s.opts.ReadOnlyGID, "http", s.opts.HTTPAddr)
}
