package control

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/vmaf"
)

// protocols are the versions each client-facing test runs under: every
// one the SDK negotiates, from the sessionless 2026-07-28 (SEP-2575) down
// through the initialize-handshake versions hosts speak today.
var protocols = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

func startTest(t *testing.T, f *fakeTarget, opts Options) *Server {
	t.Helper()
	path := filepath.Join(t.TempDir(), "vmaf.sock")
	s, err := Start(path, f, opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

type clientEvents struct {
	mu      sync.Mutex
	updates []*mcp.ResourceUpdatedNotificationParams
	logs    []*mcp.LoggingMessageParams
	signal  chan struct{}
}

func (e *clientEvents) wake() {
	select {
	case e.signal <- struct{}{}:
	default:
	}
}

func connectTest(t *testing.T, s *Server, version string) (*mcp.ClientSession, *clientEvents) {
	t.Helper()
	ev := &clientEvents{signal: make(chan struct{}, 1)}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			ev.mu.Lock()
			ev.updates = append(ev.updates, r.Params)
			ev.mu.Unlock()
			ev.wake()
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			ev.mu.Lock()
			ev.logs = append(ev.logs, r.Params)
			ev.mu.Unlock()
			ev.wake()
		},
	})
	conn, err := net.Dial("unix", s.Path())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("Connect(%s): %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, ev
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	return res
}

// decode reads a tool result's structured content into v, failing on a
// tool error.
func decode(t *testing.T, res *mcp.CallToolResult, v any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", resultText(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
}

func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, " ")
}

func TestToolList(t *testing.T) {
	s := startTest(t, newFake(), Options{})
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	readOnlyWant := map[string]bool{toolStatus: true, toolFeatures: true, toolScore: true, toolWorstFrames: true, toolListModels: true, toolExtractors: true, toolDescribeModel: true,
		toolHealth: true, toolDiagnose: true,
		toolSwap: false, toolPause: false, toolResume: false}
	for _, v := range protocols {
		t.Run(v, func(t *testing.T) {
			cs, _ := connectTest(t, s, v)
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, tool := range res.Tools {
				seen[tool.Name] = true
				if !valid.MatchString(tool.Name) {
					t.Errorf("tool name %q would be rejected by MCP hosts", tool.Name)
				}
				want, ours := readOnlyWant[tool.Name]
				if !ours {
					t.Errorf("unexpected tool %q", tool.Name)
					continue
				}
				if tool.Annotations == nil || tool.Annotations.ReadOnlyHint != want {
					t.Errorf("%s: readOnlyHint = %v, want %v", tool.Name, tool.Annotations, want)
				}
				if tool.InputSchema == nil || tool.OutputSchema == nil {
					t.Errorf("%s: missing input or output schema", tool.Name)
				}
				if len(tool.Description) < 40 {
					t.Errorf("%s: description %q too thin to act on", tool.Name, tool.Description)
				}
			}
			for name := range readOnlyWant {
				if !seen[name] {
					t.Errorf("tool %s not listed", name)
				}
			}
		})
	}
}

func TestToolCalls(t *testing.T) {
	f := newFake()
	s := startTest(t, f, Options{})
	for i := range 5 {
		f.frame(float64(90 + i))
	}
	for _, v := range protocols {
		t.Run(v, func(t *testing.T) {
			cs, _ := connectTest(t, s, v)

			var st Status
			decode(t, callTool(t, cs, "vmaf_status", nil), &st)
			if st.Socket != s.Path() || st.State != StateRunning || st.FramesScored != 5 || st.LastScore == nil || *st.LastScore != 94 {
				t.Errorf("status = %+v", st)
			}
			// The dotted alias works though it is not listed.
			var st2 Status
			decode(t, callTool(t, cs, "vmaf.status", nil), &st2)
			if st2.Model != st.Model {
				t.Errorf("vmaf.status model %q, vmaf_status %q", st2.Model, st.Model)
			}

			var sc Scores
			decode(t, callTool(t, cs, "vmaf_score", map[string]any{"last": 3}), &sc)
			if len(sc.Records) != 3 || sc.Records[2].Frame != 4 || sc.Records[2].Score != 94 || sc.Records[2].Model != "vmaf" {
				t.Errorf("scores = %+v", sc)
			}
			decode(t, callTool(t, cs, "vmaf_score", nil), &sc)
			if len(sc.Records) != 1 {
				t.Errorf("default last: %d records, want 1", len(sc.Records))
			}

			var fe Features
			decode(t, callTool(t, cs, "vmaf.features", nil), &fe)
			if len(fe.Extractors) != 2 || fe.Extra[1] != "cambi=full_ref=true" || len(fe.Requests) != 2 ||
				fe.Requests[1].Options["full_ref"] != "true" || fe.Extractors[1].Request != "cambi=full_ref=true" {
				t.Errorf("features = %+v", fe)
			}
			var el ExtractorList
			decode(t, callTool(t, cs, "vmaf_list_extractors", nil), &el)
			checkExtractorList(t, el)
			var ml ModelList
			decode(t, callTool(t, cs, "vmaf_list_models", nil), &ml)
			if len(ml.Models) != 2 {
				t.Errorf("models = %+v", ml)
			}
		})
	}
}

func TestToolErrors(t *testing.T) {
	f := newFake()
	s := startTest(t, f, Options{})
	cs, _ := connectTest(t, s, "2025-11-25")
	tests := []struct {
		tool string
		args any
		want string // in the error text
	}{
		{"vmaf_request_model_swap", map[string]any{"model": "nope"}, CodeUnknownModel},
		{"vmaf_request_model_swap", map[string]any{"model": "/etc/passwd"}, CodeForbiddenPath},
		{"vmaf_request_model_swap", map[string]any{"model": ""}, "model"},
		{"vmaf_request_model_swap", map[string]any{}, "model"},
		{"vmaf_request_model_swap", map[string]any{"model": 42}, "model"},
		{"vmaf_score", map[string]any{"last": "three"}, "last"},
		{"vmaf_score", map[string]any{"last": 5000}, "last"},
		{"vmaf_score", map[string]any{"bogus": 1}, "bogus"},
		{"vmaf_pause", map[string]any{"wait": "yes"}, "wait"},
	}
	for _, tt := range tests {
		res := callTool(t, cs, tt.tool, tt.args)
		if !res.IsError || !strings.Contains(resultText(res), tt.want) {
			t.Errorf("%s(%v): error=%v %q, want an error mentioning %q", tt.tool, tt.args, res.IsError, resultText(res), tt.want)
		}
	}
	// Unknown tools, dotted or not, are protocol errors.
	for _, name := range []string{"vmaf_nope", "vmaf.nope", "other.status"} {
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
			t.Errorf("CallTool(%s) err = %v, want unknown tool", name, err)
		}
	}
	// A queue flood is refused with queue_full, and the session goes on.
	var full bool
	for range f.capacity + 2 {
		res := callTool(t, cs, "vmaf_pause", nil)
		if res.IsError {
			full = strings.HasPrefix(resultText(res), CodeQueueFull)
			break
		}
	}
	if !full {
		t.Error("no queue_full error after flooding pause commands")
	}
	var st Status
	decode(t, callTool(t, cs, "vmaf_status", nil), &st)
	if st.CommandsPending != f.capacity {
		t.Errorf("commands pending = %d, want %d", st.CommandsPending, f.capacity)
	}
}

func TestSwapAndPause(t *testing.T) {
	f := newFake()
	s := startTest(t, f, Options{})
	cs, _ := connectTest(t, s, "2025-11-25")
	f.frame(80)

	var cmd Command
	decode(t, callTool(t, cs, "vmaf_request_model_swap", map[string]any{"model": "vmaf_v0.6.1neg", "name": "vmaf_neg"}), &cmd)
	if cmd.Status != CommandEnqueued || cmd.ID == 0 || cmd.Frame != -1 {
		t.Fatalf("swap reply = %+v", cmd)
	}

	// wait:true returns once a frame boundary applies the swap.
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "vmaf.request_model_swap",
			Arguments: map[string]any{"model": "vmaf_4k_v0.6.1", "wait": true}})
		done <- res
	}()
	deadline := time.Now().Add(30 * time.Second)
	for f.Status().CommandsPending < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	select {
	case <-done:
		t.Fatal("wait:true returned before any frame boundary")
	default:
	}
	f.frame(81) // frame 1: both swaps apply here
	var waited Command
	select {
	case res := <-done:
		decode(t, res, &waited)
	case <-time.After(30 * time.Second):
		t.Fatal("wait:true did not return after the boundary")
	}
	if waited.Status != CommandApplied || waited.Frame != 1 || waited.Model != "vmaf_4k_v0.6.1" {
		t.Errorf("waited swap = %+v", waited)
	}
	var st Status
	decode(t, callTool(t, cs, "vmaf_status", nil), &st)
	if len(st.Swaps) != 2 || st.Swaps[0].To != "vmaf_neg" || st.Swaps[0].FirstFrame != 1 || st.Model != "vmaf_4k_v0.6.1" {
		t.Errorf("swap history = %+v, model %s", st.Swaps, st.Model)
	}

	// Pause with wait, a frame boundary, then resume.
	go func() {
		res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "vmaf_pause", Arguments: map[string]any{"wait": true}})
		done <- res
	}()
	for f.Status().CommandsPending < 1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	f.frame(82)
	decode(t, <-done, &waited)
	if waited.Kind != "pause" || waited.Status != CommandApplied || waited.Frame != 2 {
		t.Errorf("pause = %+v", waited)
	}
	decode(t, callTool(t, cs, "vmaf_status", nil), &st)
	if st.State != StatePaused {
		t.Errorf("state after pause = %s", st.State)
	}
	// A wait that times out says so.
	res := callTool(t, cs, "vmaf_resume", map[string]any{"wait": true, "timeout_ms": 50})
	if !res.IsError || !strings.HasPrefix(resultText(res), CodeTimeout) {
		t.Errorf("resume wait timeout: %q", resultText(res))
	}
}

func TestSDKLogQuiet(t *testing.T) {
	var buf strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}), &slog.HandlerOptions{Level: slog.LevelDebug}))
	f := newFake()
	s := startTest(t, f, Options{Logger: logger})
	cs, ev := connectTest(t, s, "2025-11-25")
	cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: liveURI})
	for i := range 20 {
		f.frame(float64(i))
	}
	// The last update delivered, the SDK has sent (and had its say on) all.
	waitFor(t, 30*time.Second, "the last update", func() bool {
		ev.mu.Lock()
		defer ev.mu.Unlock()
		return len(ev.updates) > 0 && metaRecord(t, ev.updates[len(ev.updates)-1].Meta).Frame == 19
	})
	mu.Lock()
	out := buf.String()
	mu.Unlock()
	if !strings.Contains(out, "control client connected") {
		t.Errorf("our own connection log is missing:\n%s", out)
	}
	if n := strings.Count(out, "resource updated"); n > 0 {
		t.Errorf("the SDK logged %d per-frame lines", n)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// checkExtractorList: vmaf_list_extractors lists every extractor of the
// engine, with its outputs and options, ranges on the numeric ones only.
func checkExtractorList(t *testing.T, el ExtractorList) {
	t.Helper()
	engine := vmaf.Extractors()
	if len(el.Extractors) != len(engine) {
		t.Fatalf("%d extractors listed, the engine has %d", len(el.Extractors), len(engine))
	}
	for i, e := range el.Extractors {
		if e.Name != engine[i].Name || len(e.Outputs) != len(engine[i].Outputs) || len(e.Options) != len(engine[i].Options) {
			t.Errorf("extractor %d listed as %+v, the engine has %+v", i, e, engine[i])
			continue
		}
		for _, o := range e.Options {
			numeric := o.Type == "int" || o.Type == "double"
			if (o.Min != nil) != numeric || (o.Max != nil) != numeric || (numeric && *o.Min > *o.Max) {
				t.Errorf("%s option %s (%s): range %v..%v", e.Name, o.Name, o.Type, o.Min, o.Max)
			}
		}
	}
	names := map[string]bool{}
	for _, e := range el.Extractors {
		names[e.Name] = true
	}
	for _, want := range []string{"vif", "adm", "motion", "psnr", "float_ssim", "float_ms_ssim", "float_vif", "float_adm", "cambi", "ciede", "psnr_hvs"} {
		if !names[want] {
			t.Errorf("vmaf_list_extractors lacks %s", want)
		}
	}
}
