package gsttest

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Run is a finished gst-launch-1.0 run.
type Run struct {
	Output   string        // stdout and stderr
	Err      error         // the exit status; nil when gst-launch succeeded
	Messages []Message     // the vmafsink element messages (structure VMAF), in order
	CPU      time.Duration // user and system time the process used
}

// Message is one VMAF element message.
type Message struct {
	Fields map[string]string // field name → value as gst-launch printed it
}

// Launch runs gst-launch-1.0 -m on a pipeline description and waits for
// it, at most timeout. -f keeps gst-launch's fault handler out, so a crash
// ends the run instead of waiting for a debugger.
func Launch(t testing.TB, timeout time.Duration, description string, env ...string) *Run {
	t.Helper()
	return launch(t, timeout, "gst-launch-1.0", append([]string{"-m", "-f"}, strings.Fields(description)...), env)
}

// LaunchQuiet is Launch without -m: gst-launch prints no messages, so
// Messages is empty, and a benchmark does not time gst-launch turning
// every message into text.
func LaunchQuiet(t testing.TB, timeout time.Duration, description string, env ...string) *Run {
	t.Helper()
	return launch(t, timeout, "gst-launch-1.0", append([]string{"-q", "-f"}, strings.Fields(description)...), env)
}

// LaunchTimeout is LaunchQuiet for a pipeline that may fail to end: it
// returns nil when gst-launch is still running after timeout (and kills
// it) instead of failing the test.
func LaunchTimeout(t testing.TB, timeout time.Duration, description string, env ...string) *Run {
	t.Helper()
	run, _ := play(t, timeout, "gst-launch-1.0", append([]string{"-q", "-f"}, strings.Fields(description)...), env)
	return run
}

// launch runs a program that plays a pipeline and waits for it, at most
// timeout.
func launch(t testing.TB, timeout time.Duration, prog string, args, env []string) *Run {
	t.Helper()
	run, out := play(t, timeout, prog, args, env)
	if run == nil {
		t.Fatalf("%s did not finish within %v (deadlock?):\n%s", filepath.Base(prog), timeout, tail(out))
	}
	return run
}

// play runs prog for at most timeout and returns its run, or nil and what
// it printed when it had to be killed.
func play(t testing.TB, timeout time.Duration, prog string, args, env []string) (*Run, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Env = Env(t, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, out.String()
	}
	run := &Run{Output: out.String(), Err: err, Messages: ParseMessages(out.String())}
	if ps := cmd.ProcessState; ps != nil {
		run.CPU = ps.UserTime() + ps.SystemTime()
	}
	return run, run.Output
}

// Frames returns the type=frame messages.
func (r *Run) Frames() []Message { return r.ofType("frame") }

// Pooled returns the type=pooled message, failing the test without one.
func (r *Run) Pooled(t testing.TB) Message {
	t.Helper()
	p := r.ofType("pooled")
	if len(p) != 1 {
		t.Fatalf("%d pooled messages, want 1:\n%s", len(p), tail(r.Output))
	}
	return p[0]
}

func (r *Run) ofType(typ string) []Message {
	var out []Message
	for _, m := range r.Messages {
		if m.Fields["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}

// MustSucceed fails the test when gst-launch failed.
func (r *Run) MustSucceed(t testing.TB) {
	t.Helper()
	if r.Err != nil {
		t.Fatalf("gst-launch-1.0 failed: %v\n%s", r.Err, tail(r.Output))
	}
}

// Float returns a numeric field.
func (m Message) Float(t testing.TB, name string) float64 {
	t.Helper()
	v, ok := m.Fields[name]
	if !ok {
		t.Fatalf("message has no field %q: %v", name, m.Fields)
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t.Fatalf("field %s=%q: %v", name, v, err)
	}
	return f
}

// Uint returns an unsigned integer field.
func (m Message) Uint(t testing.TB, name string) uint64 {
	t.Helper()
	v, ok := m.Fields[name]
	if !ok {
		t.Fatalf("message has no field %q: %v", name, m.Fields)
	}
	u, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		t.Fatalf("field %s=%q: %v", name, v, err)
	}
	return u
}

const messagePrefix = "(element): VMAF, "

// ParseMessages extracts the VMAF structures from gst-launch -m output.
func ParseMessages(out string) []Message {
	var msgs []Message
	for _, line := range strings.Split(out, "\n") {
		i := strings.Index(line, messagePrefix)
		if i < 0 {
			continue
		}
		fields, err := parseFields(strings.TrimSuffix(strings.TrimSpace(line[i+len(messagePrefix):]), ";"))
		if err != nil {
			continue
		}
		msgs = append(msgs, Message{Fields: fields})
	}
	return msgs
}

// parseFields reads "name=(type)value, ..." as gst_structure_to_string
// writes it; string values may be double-quoted with backslash escapes.
func parseFields(s string) (map[string]string, error) {
	fields := map[string]string{}
	for len(s) > 0 {
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			return nil, fmt.Errorf("no '=' in %q", s)
		}
		name := strings.TrimSpace(s[:eq])
		s = s[eq+1:]
		if strings.HasPrefix(s, "(") {
			if end := strings.IndexByte(s, ')'); end >= 0 {
				s = s[end+1:]
			}
		}
		var val string
		if strings.HasPrefix(s, "\"") {
			var b strings.Builder
			i := 1
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				b.WriteByte(s[i])
			}
			val, s = b.String(), s[min(i+1, len(s)):]
		} else {
			end := strings.Index(s, ", ")
			if end < 0 {
				end = len(s)
			}
			val, s = s[:end], s[end:]
		}
		fields[name] = val
		s = strings.TrimPrefix(s, ", ")
	}
	return fields, nil
}

func tail(s string) string {
	const n = 4000
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
