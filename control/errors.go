package control

import (
	"errors"
	"fmt"
)

// Error codes a Target reports and clients branch on. They lead the text of
// a tool error ("queue_full: ...") so that scripts can match them.
const (
	CodeUnknownModel     = "unknown_model"     // not a built-in name nor an existing file
	CodeInvalidModel     = "invalid_model"     // unreadable or unparsable model file
	CodeUnsupportedModel = "unsupported_model" // needs features the engine lacks
	CodeForbiddenPath    = "forbidden_path"    // file outside the allowed directories
	CodeQueueFull        = "queue_full"        // command queue at capacity
	CodeFinished         = "finished"          // the stream has ended
	CodeBadRequest       = "bad_request"       // arguments are wrong
	CodeTimeout          = "timeout"           // waited too long
	CodeBusy             = "busy"              // too many requests in flight
	CodeReadOnly         = "read_only"         // the peer may read but not command (mcp-readonly-gid)
)

// JSON-RPC error codes of the server's own refusals, from the range
// JSON-RPC 2.0 leaves to servers (-32000 to -32099); clients branch on
// them, so their values never change. The protocol's own codes are the
// SDK's jsonrpc.Code* constants.
const (
	RPCPeerNotAllowed int64 = -32001 // the peer's uid and gid may not use the socket
	RPCClientLimit    int64 = -32002 // too many clients, in all or from one process
	RPCBusy           int64 = -32003 // a session has MaxInFlight requests unanswered
)

// Error is a failure with a stable code.
type Error struct {
	Code string
	Msg  string
	Err  error // underlying cause, if any
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Msg, e.Err)
	}
	return e.Code + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, or "".
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
