package pipelines

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/control"
)

// TestMCPSixteenSubscribers runs the pipeline flat out with 16 clients
// subscribed to live scores (half of them also taking a log line per
// frame) and compares it with the same run without a control plane: the
// throughput drop must stay within 5%. Flat out the run is bound by CPU,
// so the drop is measured as the extra CPU time per frame (wall-clock
// frame rates on a shared machine swing with the neighbours' load far
// more than 5%; they are logged too). Runs alternate and the median of
// the rounds counts. The clients read every notification off their
// sockets as a host process would, but do not decode them: their CPU is
// not the element's.
func TestMCPSixteenSubscribers(t *testing.T) {
	if testing.Short() {
		t.Skip("throughput comparison")
	}
	const clients, loops, rounds = 16, 2, 5
	ref, dist := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, "flower_576x324_x264_crf22")
	n := len(ref) * loops

	measure := func(withClients bool) (fps float64, cpu time.Duration, counts []subscriberCounts) {
		run := mcpStart(t, mcpConfig{noControl: !withClients})
		var helper *subscriberProcess
		if withClients {
			helper = startSubscribers(t, run.sock, clients)
		}
		c0 := processCPU()
		start := time.Now()
		st := <-run.feed(ref, dist, 0, loops)
		if st.err != nil {
			t.Fatal(st.err)
		}
		fps, cpu = float64(n)/time.Since(start).Seconds(), (processCPU()-c0)/time.Duration(n)
		if helper != nil {
			counts = helper.wait(t, n)
		}
		return fps, cpu, counts
	}

	var drops []float64
	var baseFPS, loadedFPS []float64
	var counts []subscriberCounts
	for range rounds {
		b, bc, _ := measure(false)
		l, lc, cs := measure(true)
		drops = append(drops, 1-float64(bc)/float64(lc))
		baseFPS, loadedFPS = append(baseFPS, b), append(loadedFPS, l)
		counts = cs
		t.Logf("round: alone %.1f frames/s, %v CPU per frame; with %d subscribers %.1f frames/s, %v CPU per frame", b, bc, clients, l, lc)
	}
	sort.Float64s(drops)
	drop := drops[len(drops)/2]
	sort.Float64s(baseFPS)
	sort.Float64s(loadedFPS)
	t.Logf("flat out, %d frames 576x324, median of %d rounds: throughput drop %.1f%% with %d subscribers (wall clock: %.1f vs %.1f frames/s)",
		n, rounds, 100*drop, clients, baseFPS[rounds/2], loadedFPS[rounds/2])
	if drop > 0.05 {
		t.Errorf("16 subscribers cost %.1f%% of the throughput (at most 5%%)", 100*drop)
	}

	// Every client of the last round got every record, or was told what it missed.
	for i, c := range counts {
		wantLogs := 0
		if i%2 == 0 {
			wantLogs = n
		}
		if c.Updates+c.Dropped != n || c.Logs != wantLogs {
			t.Errorf("client %d: %d records + %d reported dropped of %d; %d log lines, want %d", i, c.Updates, c.Dropped, n, c.Logs, wantLogs)
		}
	}
}

// processCPU is the CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// subscriberCounts is what one subscriber read.
type subscriberCounts struct {
	Updates, Logs, Dropped int
}

// subscriberProcess runs subscribers in a child process (this test binary
// running TestMCPSubscriberHelper), so that their CPU is not counted as
// the pipeline's.
type subscriberProcess struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

func startSubscribers(t *testing.T, sock string, n int) *subscriberProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestMCPSubscriberHelper$")
	cmd.Env = append(os.Environ(), "MCP_SUBSCRIBE_SOCKET="+sock, fmt.Sprintf("MCP_SUBSCRIBE_CLIENTS=%d", n))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &subscriberProcess{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if line, err := p.out.ReadString('\n'); err != nil || line != "subscribed\n" {
		t.Fatalf("subscriber helper: %q %v", line, err)
	}
	return p
}

// wait lets the subscribers read until each has accounted for n records
// (or a deadline passes), then returns their counts.
func (p *subscriberProcess) wait(t *testing.T, n int) []subscriberCounts {
	t.Helper()
	fmt.Fprintf(p.stdin, "%d\n", n)
	p.stdin.Close()
	var counts []subscriberCounts
	if err := json.NewDecoder(p.out).Decode(&counts); err != nil {
		t.Fatalf("subscriber helper: %v", err)
	}
	p.cmd.Wait()
	return counts
}

// TestMCPSubscriberHelper is the child side of startSubscribers.
func TestMCPSubscriberHelper(t *testing.T) {
	sock := os.Getenv("MCP_SUBSCRIBE_SOCKET")
	if sock == "" {
		t.Skip("run by TestMCPSixteenSubscribers")
	}
	var n int
	fmt.Sscan(os.Getenv("MCP_SUBSCRIBE_CLIENTS"), &n)
	subs := make([]*rawSubscriber, n)
	for i := range subs {
		subs[i] = subscribeRaw(t, sock, i%2 == 0)
	}
	fmt.Println("subscribed")
	var want int
	fmt.Scan(&want)
	deadline := time.Now().Add(10 * time.Second)
	counts := make([]subscriberCounts, n)
	for i, s := range subs {
		for {
			u, l, d := s.counts()
			counts[i] = subscriberCounts{u, l, d}
			if (u+d >= want && (i%2 != 0 || l >= want)) || time.Now().After(deadline) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	json.NewEncoder(os.Stdout).Encode(counts)
}

// rawSubscriber is an MCP client that subscribes to live scores and then
// only counts the notifications it reads.
type rawSubscriber struct {
	mu                     sync.Mutex
	updates, logs, dropped int
}

func (r *rawSubscriber) counts() (updates, logs, dropped int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.updates, r.logs, r.dropped
}

func subscribeRaw(t *testing.T, sock string, logs bool) *rawSubscriber {
	t.Helper()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	r := bufio.NewReaderSize(c, 1<<16)
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"counter","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"vmaf://scores/live"}}`,
	}
	if logs {
		lines = append(lines, `{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}}`)
	}
	for i, line := range lines {
		fmt.Fprintln(c, line)
		if i != 1 {
			if _, err := r.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
		}
	}
	sub := &rawSubscriber{}
	go func() {
		for {
			line, err := r.ReadSlice('\n')
			if err != nil {
				return
			}
			var d struct {
				Params struct {
					Meta struct {
						Dropped int `json:"dropped"`
					} `json:"_meta"`
				} `json:"params"`
			}
			if bytes.Contains(line, []byte(`"dropped"`)) {
				json.Unmarshal(line, &d)
			}
			sub.mu.Lock()
			switch {
			case bytes.Contains(line, []byte(`"notifications/resources/updated"`)):
				sub.updates++
			case bytes.Contains(line, []byte(`"notifications/message"`)):
				sub.logs++
			}
			sub.dropped += d.Params.Meta.Dropped
			sub.mu.Unlock()
		}
	}()
	return sub
}

// TestMCPStalledClient runs the pipeline flat out while one subscribed
// client stops reading: the pipeline must publish everything without
// waiting for it, the other client must get every record, and the stalled
// one must be cut off once a write to it outlasts the deadline. Small
// frames, many of them: the stalled socket's buffer must fill.
func TestMCPStalledClient(t *testing.T) {
	const loops = 120
	ref, dist := mcpFrames(t, "flower_321x179_ref"), mcpFrames(t, "flower_321x179_x264_crf30")
	n := len(ref) * loops
	run := mcpStart(t, mcpConfig{opts: control.Options{WriteTimeout: 500 * time.Millisecond}})

	stalled, err := net.Dial("unix", run.sock)
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	r := bufio.NewReader(stalled)
	for i, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"stalled","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"vmaf://scores/live"}}`,
	} {
		fmt.Fprintln(stalled, line)
		if i != 1 {
			if _, err := r.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
		}
	}
	// From here on nothing reads the stalled connection.

	cs, ev := mcpConnect(t, run.sock)
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "vmaf://scores/live"}); err != nil {
		t.Fatal(err)
	}
	st := <-run.feed(ref, dist, 0, loops)
	if st.err != nil {
		t.Fatal(st.err)
	}
	if got := len(run.records()); got != n {
		t.Fatalf("%d records published, want %d", got, n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		ups, _ := ev.snapshot()
		if len(ups) == n {
			for _, u := range ups {
				if u.dropped > 0 {
					t.Errorf("the healthy client lost records: %d", u.dropped)
				}
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("healthy client got %d of %d records", len(ups), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("%d frames flat out, longest push %v (median %v) with a stalled client", n, percentile(st.pushed, 1), median(st.pushed))

	// The stalled client was disconnected: what is left in its socket
	// ends in EOF rather than blocking.
	stalled.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.Copy(io.Discard, r); err != nil {
		t.Errorf("stalled client was not disconnected: %v", err)
	}
}
