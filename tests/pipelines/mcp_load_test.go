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
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
)

// TestMCPSixteenSubscribers measures what 16 subscribed clients (half of
// them also taking a log line per frame) cost a pipeline scoring 576x324
// flat out: at most 5% of its throughput.
//
// Flat out the pipeline is bound by CPU, so the drop is the share of the
// process's CPU the control plane takes. On a shared machine neither
// frame rates nor CPU per frame repeat within 5% between runs, so the
// share is measured within one run: the control plane's goroutines carry
// a pprof label (vmafsink=control), and a CPU profile of the run says how
// many samples were theirs. The clients read every notification off their
// sockets, as a host process would, in a process of their own: their CPU
// is not the element's. The run also checks that every client got every
// record.
func TestMCPSixteenSubscribers(t *testing.T) {
	if testing.Short() {
		t.Skip("throughput measurement")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("needs the go tool to read the CPU profile")
	}
	const clients, loops = 16, 20
	ref, dist := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, "flower_576x324_x264_crf22")
	n := len(ref) * loops
	run := mcpStart(t, mcpConfig{})
	helper := startSubscribers(t, run.sock, clients)

	prof := filepath.Join(t.TempDir(), "cpu.prof")
	f, err := os.Create(prof)
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	st := <-run.feed(ref, dist, 0, loops)
	elapsed := time.Since(t0)
	counts := helper.wait(t, n)
	pprof.StopCPUProfile()
	f.Close()
	if st.err != nil {
		t.Fatal(st.err)
	}
	checkCounts(t, counts, n)

	out, err := exec.Command(goTool, "tool", "pprof", "-top", "-tagfocus=vmafsink=control", os.Args[0], prof).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`accounting for ([^,]+), ([0-9.]+)% of (\S+) total`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no totals in the profile report:\n%s", out)
	}
	share, _ := strconv.ParseFloat(string(m[2]), 64)
	t.Logf("flat out, %d frames 576x324 at %.0f frames/s with %d subscribers: the control plane took %s of %s CPU (%.1f%%)",
		n, float64(n)/elapsed.Seconds(), clients, m[1], m[3], share)
	if share > 5 {
		t.Errorf("16 subscribers cost %.1f%% of the throughput (at most 5%%)", share)
	}
}

// checkCounts: every client got every record, or was told what it missed,
// and the even-numbered ones a log line per frame.
func checkCounts(t *testing.T, counts []subscriberCounts, n int) {
	t.Helper()
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
	deadline := time.Now().Add(time.Minute)
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
// waiting for it and the other client must get every record. With a write
// deadline longer than the test, all that happens while the stalled
// client is still connected, its writes blocked, which could not be if
// publication waited on them; with a shorter one, the stalled client is
// cut off once a write to it has moved nothing for that long. Small
// frames, many of them: the stalled socket's buffer must fill. Every
// client's buffer holds the whole run, so however slow the machine makes
// the healthy client, it loses nothing. The healthy client shares this
// process with the server, so a deadline it could miss while the loaded
// machine runs other things would cut it too: the cut case uses the
// default 5 s, not a fraction of a second.
func TestMCPStalledClient(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		cut     bool
	}{
		{"held", time.Hour, false},
		{"cut", 5 * time.Second, true},
	} {
		t.Run(tc.name, func(t *testing.T) { testMCPStalledClient(t, tc.timeout, tc.cut) })
	}
}

func testMCPStalledClient(t *testing.T, timeout time.Duration, cut bool) {
	const loops = 120
	ref, dist := mcpFrames(t, "flower_321x179_ref"), mcpFrames(t, "flower_321x179_x264_crf30")
	n := len(ref) * loops
	run := mcpStart(t, mcpConfig{opts: control.Options{WriteTimeout: timeout, SessionBuffer: n}})

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
	// Every record from the first: the subscription must be in force
	// before the feed starts.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := ev.acks.Subscribe(ctx, cs, "vmaf://scores/live"); err != nil {
		t.Fatal(err)
	}
	st := <-run.feed(ref, dist, 0, loops)
	if st.err != nil {
		t.Fatal(st.err)
	}
	if got := len(run.records()); got != n {
		t.Fatalf("%d records published, want %d", got, n)
	}
	// Waits for the state (every record, or the healthy client cut off);
	// the deadline only stops a hang.
	healthyGone := make(chan struct{})
	go func() { cs.Wait(); close(healthyGone) }()
	deadline := time.Now().Add(5 * time.Minute)
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
		select {
		case <-healthyGone:
			if ups, _ = ev.snapshot(); len(ups) != n {
				t.Fatalf("the healthy client was disconnected after %d of %d records: %s", len(ups), n, missing(ups, n))
			}
			continue
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("healthy client got %d of %d records in 5 minutes: %s", len(ups), n, missing(ups, n))
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("%d frames flat out, longest push %v (median %v) with a stalled client", n, percentile(st.pushed, 1), median(st.pushed))

	if !cut {
		if c := run.plane.Server().Clients(); c != 2 {
			t.Errorf("%d clients once every record was out; want the stalled one still connected too", c)
		}
		return
	}
	// The stalled client is cut off once a write to it has moved nothing
	// for the deadline. Read nothing before then: reading would let the
	// blocked write go on. After it, what is left in its socket ends in
	// EOF rather than blocking.
	waitFor(t, 5*time.Minute, "the stalled client to be cut off", func() bool { return run.plane.Server().Clients() == 1 })
	stalled.SetReadDeadline(time.Now().Add(time.Minute))
	if _, err := io.Copy(io.Discard, r); err != nil {
		t.Errorf("stalled client was not disconnected: %v", err)
	}
}

// missing says which of frames 0..n-1 a client's updates lack, and how
// many the updates reported dropped.
func missing(ups []mcpUpdate, n int) string {
	seen := make([]bool, n)
	var dropped uint64
	for _, u := range ups {
		dropped += u.dropped
		if f := int(u.rec.Frame); f >= 0 && f < n {
			seen[f] = true
		}
	}
	var lack []int
	for f, ok := range seen {
		if !ok {
			lack = append(lack, f)
		}
	}
	if len(lack) > 10 {
		return fmt.Sprintf("%d frames missing (first %v, last %d), %d reported dropped", len(lack), lack[:10], lack[len(lack)-1], dropped)
	}
	return fmt.Sprintf("frames %v missing, %d reported dropped", lack, dropped)
}
