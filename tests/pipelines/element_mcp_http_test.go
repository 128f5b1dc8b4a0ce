package pipelines

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// TestElementMCPHTTP runs vmafsink with mcp-http and a token file: an MCP
// client over Streamable HTTP reads the status and receives live scores,
// a request without the token gets 401, and a second element asking for
// the same port, or for an address off loopback, fails its start with an
// element error naming the address instead of crashing or hanging.
func TestElementMCPHTTP(t *testing.T) {
	if _, err := exec.LookPath("gst-launch-1.0"); err != nil {
		t.Skip("gst-launch-1.0 is not installed")
	}
	addr := freeAddr(t)
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("element-token-0123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := gsttest.Start(t, fmt.Sprintf("%s vmafsink name=v mcp-http=%s mcp-http-token-file=%s", liveSources, addr, token))

	var (
		mu      sync.Mutex
		updates int
	)
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(context.Context, *mcp.ResourceUpdatedNotificationRequest) {
			mu.Lock()
			updates++
			mu.Unlock()
		},
	})
	var (
		cs  *mcp.ClientSession
		err error
	)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		tr := &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", HTTPClient: &http.Client{Transport: authTransport{"element-token-0123"}}, MaxRetries: -1}
		if cs, err = c.Connect(context.Background(), tr, nil); err == nil {
			break
		}
		select {
		case err := <-p.Done():
			t.Fatalf("gst-launch ended before serving HTTP (%v):\n%s", err, p.Output())
		default:
		}
		if strings.Contains(p.Output(), "no control plane") {
			t.Skip("this build of the plugin has no control plane")
		}
		if time.Now().After(deadline) {
			t.Fatalf("no MCP over HTTP at %s after 30 s (%v):\n%s", addr, err, p.Output())
		}
	}
	defer cs.Close()
	st := mcpWaitStatus(t, cs, time.Minute, "5 frames scored", func(st control.Status) bool { return st.FramesScored >= 5 })
	if st.State != control.StateRunning || st.Width != 160 {
		t.Errorf("status %+v", st)
	}
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "vmaf://scores/live"}); err != nil {
		t.Fatal(err)
	}
	waitFor := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		n := updates
		mu.Unlock()
		if n >= 5 {
			break
		}
		if time.Now().After(waitFor) {
			t.Fatalf("%d live updates in 30 s", n)
		}
		time.Sleep(20 * time.Millisecond)
	}

	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	for _, c := range []struct{ addr, want string }{
		{addr, addr + " is already in use"},
		{"0.0.0.0:0", `"0.0.0.0:0" is not a loopback address`},
	} {
		run := gsttest.Launch(t, time.Minute, fmt.Sprintf("%s vmafsink name=v mcp-http=%s", liveSources, c.addr))
		if run.Err == nil || !strings.Contains(run.Output, "mcp-http") || !strings.Contains(run.Output, c.want) {
			t.Errorf("mcp-http=%s: %v\n%s", c.addr, run.Err, run.Output)
		}
	}
	select {
	case err := <-p.Done():
		t.Fatalf("the first pipeline ended (%v):\n%s", err, p.Output())
	default:
	}
}
