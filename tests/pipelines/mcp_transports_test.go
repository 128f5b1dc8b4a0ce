package pipelines

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// scoreServer is `vmaf-score --mcp-uds SOCK --mcp-http 127.0.0.1:0` scoring
// a golden pair fed through two FIFOs at a live rate, for as long as the
// test wants: the control plane every transport reaches.
type scoreServer struct {
	sock, url, token, out string

	cmd    *exec.Cmd
	stop   chan struct{}
	feeds  sync.WaitGroup
	stderr bytes.Buffer
	exited chan error
}

func startScoreServer(t *testing.T, fps int) *scoreServer {
	t.Helper()
	bin, _ := ffSetup(t)
	dir := t.TempDir()
	s := &scoreServer{sock: filepath.Join(dir, "vmaf.sock"), token: "e2e-token-0123-" + strconv.Itoa(os.Getpid()),
		out: filepath.Join(dir, "out.json"), stop: make(chan struct{}), exited: make(chan error, 1)}
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte(s.token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ref, dist := filepath.Join(dir, "ref.y4m"), filepath.Join(dir, "dist.y4m")
	for _, p := range []string{ref, dist} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s.cmd = exec.Command(bin, "-r", ref, "-d", dist, "--json", "-o", s.out,
		"--mcp-uds", s.sock, "--mcp-http", "127.0.0.1:0", "--mcp-http-token-file", tokenFile)
	errPipe, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Each input gets its own writer: a FIFO blocks its writer until
	// vmaf-score reads, and vmaf-score reads the two in its own order.
	for _, side := range []struct{ fifo, clip string }{{ref, "flower_321x179_ref"}, {dist, "flower_321x179_x264_crf30"}} {
		header, frames := splitY4M(t, gsttest.Clip(t, side.clip))
		s.feeds.Add(1)
		go func() {
			defer s.feeds.Done()
			f, err := os.OpenFile(side.fifo, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			defer f.Close()
			if _, err := f.Write(header); err != nil {
				return
			}
			tick := time.NewTicker(time.Second / time.Duration(fps))
			defer tick.Stop()
			for i := 0; ; i++ {
				select {
				case <-s.stop:
					return
				case <-tick.C:
				}
				if _, err := f.Write(frames[i%len(frames)]); err != nil {
					return
				}
			}
		}()
	}
	addr := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`MCP on (http://[0-9.:]+)/mcp`)
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			line := sc.Text()
			s.stderr.WriteString(line + "\n")
			if m := re.FindStringSubmatch(line); m != nil {
				addr <- m[1]
			}
		}
		s.exited <- s.cmd.Wait()
	}()
	t.Cleanup(func() {
		s.finish()
		select {
		case <-s.exited:
		case <-time.After(10 * time.Second):
			s.cmd.Process.Kill()
		}
	})
	select {
	case s.url = <-addr:
	case err := <-s.exited:
		t.Fatalf("vmaf-score exited (%v) before serving: %s", err, s.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("vmaf-score printed no HTTP address: %s", s.stderr.String())
	}
	return s
}

// finish ends the inputs, so that vmaf-score scores what it has and exits.
func (s *scoreServer) finish() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	s.feeds.Wait()
}

// tsReport is what client.mjs prints.
type tsReport struct {
	Transport string
	Server    struct{ Name string }
	Tools     []struct{ Name string }
	Calls     map[string]json.RawMessage
	Errors    map[string]string
	Resources map[string]json.RawMessage
	Updates   int
	Frames    []struct {
		Frame int64
		Model string
	}
	ConnectError string
	Code         any
	Connected    bool
}

// runTSClient runs client.mjs over one transport with extra environment.
func runTSClient(t *testing.T, dir string, env []string, args ...string) tsReport {
	t.Helper()
	cmd := exec.Command("node", append([]string{"client.mjs"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	go func() {
		<-ctx.Done()
		if cmd.Process != nil && ctx.Err() == context.DeadlineExceeded {
			cmd.Process.Kill()
		}
	}()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client.mjs %v: %v\n%s", args, err, out)
	}
	var rep tsReport
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("report %s: %v", out, err)
	}
	return rep
}

// TestMCPTransports runs the official TypeScript SDK's client over every
// transport against one vmaf-score run: stdio through `vmafctl stdio`,
// Streamable HTTP and HTTP+SSE (socat's stdio is TestMCPTypeScriptClient).
// Each lists the tools, calls them (vmaf_status among them), subscribes to
// vmaf://scores/live and receives its updates, and swaps the model. Then
// the refusals: no token (401), a foreign Origin (403), an address off
// loopback; and vmaf_status round trips per transport, for the README.
func TestMCPTransports(t *testing.T) {
	dir := tsClientDir(t)
	srv := startScoreServer(t, 25)
	vmafctl := vmafctlBin(t)
	tokenEnv := "VMAF_MCP_TOKEN=" + srv.token
	swapped := false // a client swapped the model (not when -run picks other subtests)

	for _, tc := range []struct {
		transport, target string
		env               []string
	}{
		{"vmafctl", srv.sock, []string{"VMAFCTL=" + vmafctl}},
		{"http", srv.url, []string{tokenEnv}},
		{"sse", srv.url, []string{tokenEnv, "VMAF_MCP_ORIGIN=http://localhost:6274"}},
	} {
		t.Run("typescript/"+tc.transport, func(t *testing.T) {
			rep := runTSClient(t, dir, tc.env, tc.transport, tc.target, "10")
			t.Logf("TypeScript SDK over %s: %d tools, %d live updates", rep.Transport, len(rep.Tools), rep.Updates)
			if rep.Server.Name != "vmafsink" || rep.Transport != tc.transport {
				t.Errorf("server %q over %q", rep.Server.Name, rep.Transport)
			}
			listed := map[string]bool{}
			for _, tool := range rep.Tools {
				listed[tool.Name] = true
			}
			for _, name := range []string{"vmaf_status", "vmaf_score", "vmaf_request_model_swap", "vmaf_pause", "vmaf_resume", "vmaf_list_models"} {
				if !listed[name] {
					t.Errorf("%s not listed", name)
				}
			}
			var st control.Status
			if err := json.Unmarshal(rep.Calls["vmaf_status"], &st); err != nil || st.State != control.StateRunning || st.Socket != srv.sock {
				t.Errorf("vmaf_status: %s (%v)", rep.Calls["vmaf_status"], err)
			}
			var swap control.Command
			json.Unmarshal(rep.Calls["vmaf_request_model_swap"], &swap)
			if swap.Status != control.CommandApplied || swap.Frame < 0 {
				t.Errorf("swap %s (error %q)", rep.Calls["vmaf_request_model_swap"], rep.Errors["vmaf_request_model_swap"])
			} else {
				swapped = true
			}
			if rep.Updates < 10 || len(rep.Frames) < 10 {
				t.Fatalf("%d updates, %d frames", rep.Updates, len(rep.Frames))
			}
			for i, f := range rep.Frames {
				if i > 0 && f.Frame <= rep.Frames[i-1].Frame {
					t.Errorf("live frame %d after %d", f.Frame, rep.Frames[i-1].Frame)
				}
				if f.Frame >= swap.Frame && f.Model != "vmaf_neg" {
					t.Errorf("frame %d after the swap at %d scored by %q", f.Frame, swap.Frame, f.Model)
				}
			}
		})
	}

	t.Run("refusals", func(t *testing.T) {
		connectOnly := "VMAF_MCP_CONNECT_ONLY=1"
		for _, c := range []struct {
			name, transport string
			env             []string
			code            float64
		}{
			{"http without token", "http", nil, http.StatusUnauthorized},
			{"sse without token", "sse", nil, http.StatusUnauthorized},
			{"http wrong token", "http", []string{"VMAF_MCP_TOKEN=wrong"}, http.StatusUnauthorized},
			{"http foreign origin", "http", []string{tokenEnv, "VMAF_MCP_ORIGIN=https://evil.example"}, http.StatusForbidden},
			{"sse foreign origin", "sse", []string{tokenEnv, "VMAF_MCP_ORIGIN=https://evil.example"}, http.StatusForbidden},
		} {
			rep := runTSClient(t, dir, append(c.env, connectOnly), c.transport, srv.url)
			if rep.Connected || rep.Code != c.code {
				t.Errorf("%s: connected %v, error %q (code %v), want HTTP %v", c.name, rep.Connected, rep.ConnectError, rep.Code, c.code)
			}
		}
		if rep := runTSClient(t, dir, []string{tokenEnv, connectOnly}, "http", srv.url); !rep.Connected {
			t.Errorf("with the token: %q", rep.ConnectError)
		}
		bin, _ := ffSetup(t)
		ref, dist := gsttest.Clip(t, "flower_321x179_ref"), gsttest.Clip(t, "flower_321x179_x264_crf30")
		for _, addr := range []string{"0.0.0.0:0", "[::]:0", ":8765"} {
			out, err := exec.Command(bin, "-r", ref, "-d", dist, "-q", "--json", "-o", "-", "--mcp-http", addr).CombinedOutput()
			if err == nil || !strings.Contains(string(out), "not a loopback address") || !strings.Contains(string(out), addr) {
				t.Errorf("--mcp-http %s: %v, %s", addr, err, out)
			}
		}
	})

	t.Run("latency", func(t *testing.T) {
		for _, tr := range []string{"socket", "http", "sse", "vmafctl stdio"} {
			cs := connectGo(t, tr, srv, vmafctl)
			ctx := context.Background()
			var rtt []time.Duration
			for range 300 {
				t0 := time.Now()
				if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "vmaf_status", Arguments: map[string]any{}}); err != nil {
					t.Fatalf("%s: %v", tr, err)
				}
				rtt = append(rtt, time.Since(t0))
				time.Sleep(2 * time.Millisecond)
			}
			cs.Close()
			p50, p99 := percentile(rtt, 0.5), percentile(rtt, 0.99)
			// The figures are the machine's as much as ours: logged here,
			// the latency targets are the BenchmarkMCPStatus* benchmarks'.
			t.Logf("vmaf_status round trip over %-13s p50 %v  p99 %v  (%d calls, 321x179 scored at 25 frames/s)", tr, p50.Round(time.Microsecond), p99.Round(time.Microsecond), len(rtt))
		}
	})

	srv.finish()
	select {
	case err := <-srv.exited:
		if err != nil {
			t.Errorf("vmaf-score: %v\n%s", err, srv.stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("vmaf-score did not exit once its inputs ended")
	}
	data, err := os.ReadFile(srv.out)
	if err != nil || !strings.Contains(string(data), `"frames"`) {
		t.Errorf("no results file (%v)", err)
	}
	if swapped && !strings.Contains(string(data), `"model_swaps"`) {
		t.Error("results file without the swaps")
	}
}

// connectGo connects the Go SDK's client over one transport.
func connectGo(t *testing.T, transport string, srv *scoreServer, vmafctl string) *mcp.ClientSession {
	t.Helper()
	var tr mcp.Transport
	hc := &http.Client{Transport: authTransport{srv.token}}
	switch transport {
	case "socket":
		return mustConnect(t, &socketTransport{srv.sock})
	case "http":
		tr = &mcp.StreamableClientTransport{Endpoint: srv.url + "/mcp", HTTPClient: hc}
	case "sse":
		tr = &mcp.SSEClientTransport{Endpoint: srv.url + "/sse", HTTPClient: hc}
	case "vmafctl stdio":
		tr = &mcp.CommandTransport{Command: exec.Command(vmafctl, "-s", srv.sock, "stdio")}
	default:
		t.Fatalf("transport %q", transport)
	}
	return mustConnect(t, tr)
}

func mustConnect(t *testing.T, tr mcp.Transport) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

type authTransport struct{ token string }

func (a authTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+a.token)
	return http.DefaultTransport.RoundTrip(r)
}

// socketTransport dials the control socket, as vmafctl does.
type socketTransport struct{ path string }

func (s *socketTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", s.path)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", s.path, err)
	}
	return (&mcp.IOTransport{Reader: c, Writer: c}).Connect(ctx)
}
