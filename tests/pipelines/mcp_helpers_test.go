package pipelines

// Helpers for the control-plane tests (mcp_*_test.go): a pipeline.Runner
// scoring golden clips with the control plane attached, as the element
// and vmaf-score run it, and MCP clients on its socket.

import (
	"cmp"
	"context"
	"encoding/json"
	"math"
	"net"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/control/attach"
	"github.com/vmafsink/vmafsink/control/subscribe"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
	"github.com/vmafsink/vmafsink/vmaf"
)

var (
	mcpClipMu    sync.Mutex
	mcpClipCache = map[string][]*vmaf.Picture{}
)

// mcpFrames returns every frame of a golden clip from testdata, decoded
// once per test process. The pictures are shared: never write to them.
func mcpFrames(t testing.TB, name string) []*vmaf.Picture {
	t.Helper()
	mcpClipMu.Lock()
	defer mcpClipMu.Unlock()
	if pics, ok := mcpClipCache[name]; ok {
		return pics
	}
	pics := gsttest.LoadFrames(t, gsttest.Clip(t, name))
	mcpClipCache[name] = pics
	return pics
}

// mcpRun is a Runner with the control plane attached and every published
// record kept.
type mcpRun struct {
	r     *pipeline.Runner
	plane *attach.Plane
	sock  string

	mu   sync.Mutex
	recs []*pipeline.Record

	stop     chan struct{} // closed to end a feed early
	stopOnce sync.Once
	// budget is how many pairs a feed may push; a test raises it to say
	// how many frames pass between its steps, whatever the machine's speed.
	budget atomic.Int64
}

// stopFeed makes a running feed finish after the pair it is pushing.
func (m *mcpRun) stopFeed() { m.stopOnce.Do(func() { close(m.stop) }) }

type mcpConfig struct {
	model     string
	pauseMode pipeline.PauseMode
	threads   int // scoring workers; 0: 2
	opts      control.Options
	noControl bool // the same Runner without a control plane, for baselines
	modelDirs []string
	// worstFrames keeps that many worst frames with their pictures, and
	// background lowers the workers as a host with a control plane does.
	worstFrames int
	background  bool
}

func mcpStart(t testing.TB, c mcpConfig) *mcpRun {
	t.Helper()
	if c.model == "" {
		c.model = "vmaf_v0.6.1"
	}
	m, err := vmaf.ParseModelSpec(c.model)
	if err != nil {
		t.Fatal(err)
	}
	scorer := vmaf.Config{Models: []*vmaf.Model{m}, Engine: "native", Threads: cmp.Or(c.threads, 2)}
	if c.background {
		scorer.WorkerSetup = attach.WorkerSetup()
	}
	r, err := pipeline.New(pipeline.Config{
		Scorer:      scorer,
		Pairing:     pipeline.PairByOrder,
		PauseMode:   c.pauseMode,
		WorstFrames: c.worstFrames,
	})
	if err != nil {
		t.Fatal(err)
	}
	run := &mcpRun{r: r, stop: make(chan struct{})}
	run.budget.Store(math.MaxInt64)
	cancel := r.Subscribe(func(rec *pipeline.Record) {
		run.mu.Lock()
		run.recs = append(run.recs, rec.Clone())
		run.mu.Unlock()
	})
	t.Cleanup(func() {
		cancel()
		r.Close()
		if run.plane != nil {
			run.plane.Close()
		}
	})
	if c.noControl {
		return run
	}
	run.sock = filepath.Join(t.TempDir(), "vmaf.sock")
	run.plane, err = attach.Start(attach.Config{Socket: run.sock, Runner: r, ModelSpec: c.model, ModelDirs: c.modelDirs, Engine: "native", Options: c.opts})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func (m *mcpRun) records() []*pipeline.Record {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*pipeline.Record(nil), m.recs...)
}

// feedStats is what a feeder saw: when each pair went in and how long its
// pushes took (a long push is a stalled streaming thread).
type feedStats struct {
	start  []time.Time     // per pair, before its first push
	pushed []time.Duration // per pair, both pushes
	err    error
}

// feed pushes the pairs on a goroutine, like two streaming threads in
// lockstep, one pair per interval (0: flat out), loops times over or
// until stopFeed, then finishes the run.
func (m *mcpRun) feed(ref, dist []*vmaf.Picture, interval time.Duration, loops int) <-chan feedStats {
	out := make(chan feedStats, 1)
	go func() {
		var st feedStats
		t0 := time.Now()
		n := 0
	loop:
		for range max(loops, 1) {
			for i := range min(len(ref), len(dist)) {
				select {
				case <-m.stop:
					break loop
				default:
				}
				for int64(n) >= m.budget.Load() {
					select {
					case <-m.stop:
						break loop
					case <-time.After(time.Millisecond):
					}
				}
				if interval > 0 {
					time.Sleep(time.Until(t0.Add(time.Duration(n) * interval)))
				}
				n++
				s := time.Now()
				st.start = append(st.start, s)
				if err := m.r.Push(pipeline.Ref, pipeline.Frame{Picture: ref[i], Timing: pipeline.Untimed}); err != nil {
					st.err = err
					break loop
				}
				if err := m.r.Push(pipeline.Dist, pipeline.Frame{Picture: dist[i], Timing: pipeline.Untimed}); err != nil {
					st.err = err
					break loop
				}
				st.pushed = append(st.pushed, time.Since(s))
			}
		}
		if err := m.r.Finish(); err != nil && st.err == nil {
			st.err = err
		}
		out <- st
	}()
	return out
}

// mcpEvents collects what a client is sent.
type mcpEvents struct {
	mu      sync.Mutex
	updates []mcpUpdate
	logs    int
	// acks makes a subscription wait until the server has it.
	acks *subscribe.Acks
}

type mcpUpdate struct {
	at      time.Time
	rec     control.Record
	dropped uint64
}

func (e *mcpEvents) snapshot() ([]mcpUpdate, int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]mcpUpdate(nil), e.updates...), e.logs
}

func mcpConnect(t testing.TB, sock string) (*mcp.ClientSession, *mcpEvents) {
	t.Helper()
	ev := &mcpEvents{acks: subscribe.New()}
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			u := mcpUpdate{at: time.Now()}
			if b, err := json.Marshal(r.Params.Meta["record"]); err == nil {
				json.Unmarshal(b, &u.rec)
			}
			if d, ok := r.Params.Meta["dropped"].(float64); ok {
				u.dropped = uint64(d)
			}
			ev.mu.Lock()
			ev.updates = append(ev.updates, u)
			ev.mu.Unlock()
		},
		LoggingMessageHandler: func(context.Context, *mcp.LoggingMessageRequest) {
			ev.mu.Lock()
			ev.logs++
			ev.mu.Unlock()
		},
	})
	c.AddReceivingMiddleware(ev.acks.Middleware)
	conn, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, ev
}

// mcpCall calls a tool and decodes its result into out; it returns the
// tool error's text, or "" on success.
func mcpCall(t testing.TB, cs *mcp.ClientSession, tool string, args map[string]any, out any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		return mcpText(res)
	}
	if out != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
	}
	return ""
}

// mcpStatus polls vmaf_status until cond holds.
func mcpWaitStatus(t testing.TB, cs *mcp.ClientSession, d time.Duration, what string, cond func(control.Status) bool) control.Status {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		var st control.Status
		if msg := mcpCall(t, cs, "vmaf_status", nil, &st); msg != "" {
			t.Fatal(msg)
		}
		if cond(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; status %+v", what, st)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// dialUnix connects to the control socket sock, trying again until the
// server listens or ctx ends.
func dialUnix(t *testing.T, ctx context.Context, sock string) net.Conn {
	t.Helper()
	for {
		conn, err := net.Dial("unix", sock)
		if err == nil {
			return conn
		}
		if ctx.Err() != nil {
			t.Fatalf("no control socket at %s: %v", sock, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
