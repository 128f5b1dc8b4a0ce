package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/control/attach"
	"github.com/vmafsink/vmafsink/pipeline"
)

// mcpProbe is the control plane of a vmaf-score run, served for real on
// its socket, with a client that swaps to the float model after the first
// record and reads vmaf_features and vmaf_list_extractors before the
// plane closes.
type mcpProbe struct {
	plane *attach.Plane
	cs    *mcp.ClientSession
	swap  chan control.Command
	errs  chan error

	features   control.Features
	extractors control.ExtractorList
}

func (p *mcpProbe) call(tool string, args map[string]any, out any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := p.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return err
	}
	if res.IsError {
		return &control.Error{Msg: res.Content[0].(*mcp.TextContent).Text}
	}
	b, _ := json.Marshal(res.StructuredContent)
	return json.Unmarshal(b, out)
}

func (p *mcpProbe) Close() error {
	err := p.call("vmaf_features", nil, &p.features)
	if err == nil {
		err = p.call("vmaf_list_extractors", nil, &p.extractors)
	}
	p.cs.Close()
	if cerr := p.plane.Close(); err == nil {
		err = cerr
	}
	return err
}

// TestMCPFeatureRequests: vmaf-score --mcp-uds serves the same tools as the
// element: its --feature requests in vmaf_features, every extractor in
// vmaf_list_extractors, and a swap to vmaf_float_v0.6.1 scored natively.
//
// The distorted clip comes through a FIFO that holds back all but its
// first frames until the swap is queued (or applied), so the swap lands
// mid-stream however slowly the request travels.
func TestMCPFeatureRequests(t *testing.T) {
	var probe *mcpProbe
	gate, swapped := make(chan struct{}), make(chan struct{})
	withControl(t, func(cfg attach.Config) (io.Closer, error) {
		plane, err := attach.Start(cfg)
		if err != nil {
			return nil, err
		}
		conn, err := net.Dial("unix", cfg.Socket)
		if err != nil {
			plane.Close()
			return nil, err
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
		if err != nil {
			plane.Close()
			return nil, err
		}
		probe = &mcpProbe{plane: plane, cs: cs, swap: make(chan control.Command, 1), errs: make(chan error, 1)}
		var once sync.Once
		cfg.Runner.Subscribe(func(*pipeline.Record) {
			once.Do(func() {
				// Not on the publishing goroutine: the swap waits for frames.
				go func() {
					var cmd control.Command
					err := probe.call("vmaf_request_model_swap", map[string]any{"model": "vmaf_float_v0.6.1", "wait": true}, &cmd)
					close(swapped)
					probe.swap <- cmd
					probe.errs <- err
				}()
			})
		})
		go func() {
			defer close(gate)
			// (A minute on, the rest goes anyway, for the checks to say why.)
			for end := time.Now().Add(time.Minute); cfg.Runner.Status().CommandsPending == 0 && time.Now().Before(end); {
				select {
				case <-swapped:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}()
		return probe, nil
	})

	ref := goldenY4M(t, "flower_576x324_ref.y4m")
	dist := y4mFIFO(t, goldenY4M(t, "flower_576x324_x264_crf22.y4m"), 4, gate)
	out := filepath.Join(t.TempDir(), "out.json")
	res := vmafScore(t, "-r", ref, "-d", dist, "--json", "-o", out, "--feature", "cambi=full_ref=true", "--feature", "ciede",
		"--mcp-uds", filepath.Join(t.TempDir(), "s"))
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if probe == nil {
		t.Fatal("no control plane started")
	}
	cmd := <-probe.swap
	if err := <-probe.errs; err != nil || cmd.Status != control.CommandApplied || cmd.Frame < 1 {
		t.Fatalf("swap to the float model: %+v, %v", cmd, err)
	}

	fe := probe.features
	if !slices.Equal(fe.Extra, []string{"cambi=full_ref=true", "ciede"}) || len(fe.Requests) != 2 || fe.Requests[0].Options["full_ref"] != "true" {
		t.Errorf("vmaf_features: extra %v, requests %+v", fe.Extra, fe.Requests)
	}
	var cambi, float bool
	for _, e := range fe.Extractors {
		cambi = cambi || e.Request == "cambi=full_ref=true" && slices.Contains(e.Outputs, "cambi_full_reference") && e.Options["full_ref"] == 1
		float = float || e.Name == "float_vif" && slices.Contains(e.Outputs, "vif_scale0")
	}
	if !cambi || !float {
		t.Errorf("vmaf_features after the float swap: %+v", fe.Extractors)
	}
	if !slices.ContainsFunc(probe.extractors.Extractors, func(e control.ExtractorInfo) bool { return e.Name == "psnr_hvs" }) {
		t.Errorf("vmaf_list_extractors: %+v", probe.extractors)
	}

	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Frames []struct {
			Model   string             `json:"model"`
			Metrics map[string]float64 `json:"metrics"`
		} `json:"frames"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	t.Logf("swap applied at frame %d", cmd.Frame)
	if len(doc.Frames) != 48 || int(cmd.Frame) >= len(doc.Frames) {
		t.Fatalf("%d frames, swap at %d", len(doc.Frames), cmd.Frame)
	}
	for i, f := range doc.Frames {
		want := "vmaf_v0.6.1"
		if i >= int(cmd.Frame) {
			want = "vmaf_float_v0.6.1"
		}
		_, c := f.Metrics["ciede2000"]
		_, v := f.Metrics["vif_scale0"]
		if f.Model != want || !c || v != (i >= int(cmd.Frame)) {
			t.Errorf("frame %d: model %s, ciede2000 %v, vif_scale0 %v (swap at %d)", i, f.Model, c, v, cmd.Frame)
		}
	}
}
