package gsttest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Process is a gst-launch-1.0 running in the background.
type Process struct {
	Cmd    *exec.Cmd
	out    *syncBuffer
	done   chan error
	exited chan struct{} // closed when the process has ended
	err    error         // its exit status, once exited is closed
}

// Start starts gst-launch-1.0 -m on a pipeline description.
func Start(t testing.TB, description string, env ...string) *Process {
	t.Helper()
	return StartArgs(t, nil, description, env...)
}

// StartArgs is Start with more gst-launch-1.0 options, such as -e.
func StartArgs(t testing.TB, args []string, description string, env ...string) *Process {
	t.Helper()
	args = append(append([]string{"-m", "-f"}, args...), strings.Fields(description)...)
	cmd := exec.Command("gst-launch-1.0", args...)
	cmd.Env = Env(t, env...)
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &Process{Cmd: cmd, out: out, done: make(chan error, 1), exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
		p.done <- p.err
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// Done is sent the exit status when the process ends.
func (p *Process) Done() <-chan error { return p.done }

// Exited is closed when the process ends, for any number of waiters
// (Done delivers the status once); ExitErr is then its status.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// ExitErr is the exit status once Exited is closed.
func (p *Process) ExitErr() error { return p.err }

// Output returns what the process printed so far.
func (p *Process) Output() string { return p.out.String() }

// RSS returns the process's resident set size in bytes.
func (p *Process) RSS() (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.Cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", p.Cmd.Process.Pid)
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
