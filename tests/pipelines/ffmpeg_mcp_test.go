package pipelines

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An agent steers an FFmpeg-side run over vmaf-score's MCP socket as it
// would a GStreamer one: it reads the status while frames arrive, swaps
// the model, and the frames after the swap are scored, and written, under
// the new model. The distorted frames come through a pipe so the test
// decides where the frame boundary of the swap falls.
func TestMCPSessionSwapsModel(t *testing.T) {
	bin, _ := ffSetup(t)
	dir := t.TempDir()
	refYUV := ffClips.FFmpeg(t, "mcp_ref.yuv", "-i", ffClips.Y4M(t, "flower_576x324_ref.y4m"), "-frames:v", "8", "-f", "rawvideo")
	distYUV := ffClips.FFmpeg(t, "mcp_dist.yuv", "-i", ffClips.Y4M(t, "flower_576x324_x264_crf22.y4m"), "-frames:v", "8", "-f", "rawvideo")
	dist, err := os.ReadFile(distYUV)
	if err != nil {
		t.Fatal(err)
	}
	const frameSize = 576 * 324 * 3 / 2
	raw := []string{"-w", "576", "-h", "324", "-p", "420", "-b", "8"}

	sock := filepath.Join(dir, "vmaf.sock")
	out := filepath.Join(dir, "out.json")
	cmd := exec.Command(bin, append([]string{"-r", refYUV, "-d", "-", "--mcp-uds", sock, "--json", "-o", out, "--threads", "1"}, raw...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if _, err := stdin.Write(dist[:4*frameSize]); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs := ffDialMCP(t, ctx, sock)
	defer cs.Close()
	// Frame 3 waits for frame 4 (motion looks one frame ahead), so three
	// frames are scored while the fifth has not arrived.
	var st struct {
		State        string `json:"state"`
		Model        string `json:"model"`
		FramesScored int    `json:"frames_scored"`
		Width        int    `json:"width"`
	}
	for st.FramesScored < 3 {
		ffCallTool(t, ctx, cs, "vmaf_status", nil, &st)
		time.Sleep(20 * time.Millisecond)
	}
	if st.State != "running" || st.Width != 576 {
		t.Errorf("status %+v", st)
	}
	var swap struct {
		ID     uint64 `json:"id"`
		Status string `json:"status"`
	}
	ffCallTool(t, ctx, cs, "vmaf_request_model_swap", map[string]any{"model": "vmaf_v0.6.1neg"}, &swap)
	if swap.ID == 0 || swap.Status == "failed" {
		t.Fatalf("swap %+v", swap)
	}

	if _, err := stdin.Write(dist[4*frameSize:]); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("vmaf-score: %v: %s", err, stderr.String())
	}

	l := ffReadFrames(t, out)
	if len(l.Frames) != 8 {
		t.Fatalf("%d frames", len(l.Frames))
	}
	for i, f := range l.Frames {
		want := "vmaf_v0.6.1"
		if i >= 4 {
			want = "vmaf_v0.6.1neg"
		}
		if f.Model != want {
			t.Errorf("frame %d scored by %q, want %q", i, f.Model, want)
		}
	}
	// After the swap the NEG model's scores are its own, under its version
	// (the name vmaf was the first model's), and equal a NEG-only run's.
	negOut := filepath.Join(dir, "neg.json")
	if b, err := exec.Command(bin, append([]string{"-r", refYUV, "-d", distYUV, "-m", "version=vmaf_v0.6.1neg", "--json", "-o", negOut, "-q"}, raw...)...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	neg := ffReadFrames(t, negOut)
	for i := 4; i < 8; i++ {
		if _, mixed := l.Frames[i].Metrics["vmaf"]; mixed {
			t.Errorf("frame %d after the swap still has a vmaf score", i)
		}
		if got, want := l.Frames[i].Metrics["vmaf_v0.6.1neg"], neg.Frames[i].Metrics["vmaf"]; got != want {
			t.Errorf("frame %d vmaf_v0.6.1neg %f, the NEG model gives %f", i, got, want)
		}
	}
}

func ffDialMCP(t *testing.T, ctx context.Context, sock string) *mcp.ClientSession {
	t.Helper()
	conn := dialUnix(t, ctx, sock)
	c := mcp.NewClient(&mcp.Implementation{Name: "ffmpeg-path-test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		conn.Close()
		t.Fatal(err)
	}
	return cs
}

func ffCallTool(t *testing.T, ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any, out any) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		var texts []string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				texts = append(texts, tc.Text)
			}
		}
		t.Fatalf("%s: %s", name, strings.Join(texts, "; "))
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: %s: %v", name, b, err)
	}
}
