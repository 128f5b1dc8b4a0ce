package control

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// inFlightIDs follows the requests a client has open: the ids handed to
// the SDK and not yet answered. It makes three promises the SDK does not:
// a request whose id is already in flight is refused (the SDK would lose
// one of the two replies); a cancellation (notifications/cancelled)
// drops only the reply of a request still in flight, so one that names an
// unknown or answered id cannot swallow the reply of a later request that
// reuses the id; and the cancelled request's reply, which the SDK writes
// anyway, is not sent, as the protocol asks.
type inFlightIDs struct {
	mu   sync.Mutex
	open map[string]bool // id key → cancelled
}

// maxOpenIDs bounds the ids followed per client; the server runs at most
// MaxInFlight of a client's requests at once and refuses the others at
// once, so only a client that never reads its replies comes near it.
const maxOpenIDs = 1024

// idKey names a request id as JSON sends it, so that a string id and a
// number with the same digits stay apart and a string's escapes do not
// matter. Numeric ids reach here only as integers (see checkID).
func idKey(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return "s" + s, true
	}
	return "n" + string(raw), true
}

// rawID returns the id member of one JSON-RPC message object.
func rawID(msg []byte) json.RawMessage {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &probe) != nil {
		return nil
	}
	return probe.ID
}

// start records a request's id, or refuses it with the reason (and the id
// as sent, to answer with) when a request with that id is still open.
func (f *inFlightIDs) start(msg []byte) (json.RawMessage, string) {
	id := rawID(msg)
	key, ok := idKey(id)
	if !ok {
		return nil, ""
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, dup := f.open[key]; dup {
		return quotable(id), fmt.Sprintf("invalid request: id %s is already in use by a request in flight; use a new id for each request", shortID(id))
	}
	if len(f.open) >= maxOpenIDs {
		return quotable(id), fmt.Sprintf("invalid request: %d requests unanswered; read the replies before sending more", len(f.open))
	}
	if f.open == nil {
		f.open = make(map[string]bool)
	}
	f.open[key] = false
	return nil, ""
}

// forget drops a request's id that start recorded but that never reached
// the SDK.
func (f *inFlightIDs) forget(msg []byte) {
	if key, ok := idKey(rawID(msg)); ok {
		f.mu.Lock()
		delete(f.open, key)
		f.mu.Unlock()
	}
}

// openCount is how many requests are unanswered.
func (f *inFlightIDs) openCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.open)
}

// quotable is id when it is short enough to echo in an error reply.
func quotable(id json.RawMessage) json.RawMessage {
	if len(id) > maxQuotedID {
		return nil
	}
	return id
}

func shortID(id json.RawMessage) string {
	if len(id) > maxQuotedID {
		return string(id[:maxQuotedID]) + "…"
	}
	return string(id)
}

// cancel marks the request a notifications/cancelled names, if it is
// still open, and reports whether it was; anything else is ignored, as
// the protocol allows.
func (f *inFlightIDs) cancel(params json.RawMessage) bool {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	key, ok := idKey(p.RequestID)
	if !ok {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	_, open := f.open[key]
	if open {
		f.open[key] = true
	}
	return open
}

// answered closes the requests a message from the server replies to, and
// reports whether the message must not be sent: the reply to a single
// cancelled request.
func (f *inFlightIDs) answered(p []byte) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.open) == 0 {
		return false
	}
	msg := bytes.TrimSpace(p)
	if len(msg) > 0 && msg[0] == '[' {
		var batch []struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
		}
		json.Unmarshal(msg, &batch)
		for _, m := range batch {
			if key, ok := idKey(m.ID); ok && m.Method == nil {
				delete(f.open, key)
			}
		}
		return false
	}
	id, ok := responseID(msg)
	if !ok {
		return false
	}
	key, ok := idKey(id)
	if !ok {
		return false
	}
	cancelled, open := f.open[key]
	delete(f.open, key)
	return open && cancelled
}

// responseID returns the id of a response without decoding its result:
// it reads the object's members in order and stops at the id, which the
// SDK writes first, or at a method, which makes it no response.
func responseID(msg []byte) (json.RawMessage, bool) {
	if len(msg) == 0 || msg[0] != '{' {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(msg))
	if _, err := dec.Token(); err != nil {
		return nil, false
	}
	var id json.RawMessage
	found := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := tok.(string)
		switch key {
		case "method":
			return nil, false
		case "id":
			if dec.Decode(&id) != nil {
				return nil, false
			}
			found = true
		default:
			if found {
				// The id came first; a request would have named its
				// method next to it (the SDK writes id, method, params).
				if strings.HasPrefix(key, "result") || key == "error" {
					return id, true
				}
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil, false
			}
		}
	}
	return id, found
}
