package control

import (
	"image"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"
)

// TestFaultHeavyReadsBudget: four sessions, four requests each, of
// vmaf_worst_frames with every image took scoring from 50 to 4 frames/s.
// Expensive reads now share one budget for every client: with MaxHeavy
// of them running, the next (worst-frame images, a score range, a long
// score list, a diagnosis) is refused as busy at once, light reads are
// answered meanwhile, and each expensive read runs at the lowest priority.
func TestFaultHeavyReadsBudget(t *testing.T) {
	w := newWorstFake(4, 4, 64, 36)
	release := make(chan struct{})
	var inImage, maxIn atomic.Int32
	var niceSeen sync.Map
	for i := range w.frames {
		img := w.frames[i].Image
		w.frames[i].Image = func(name string, maxWidth int) (image.Image, error) {
			n := inImage.Add(1)
			for m := maxIn.Load(); n > m && !maxIn.CompareAndSwap(m, n); m = maxIn.Load() {
			}
			defer inImage.Add(-1)
			// The raw system call returns 20 - nice.
			if p, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid()); err == nil {
				niceSeen.Store(20-p, true)
			}
			<-release
			return img(name, maxWidth)
		}
	}
	s, err := Start(filepath.Join(t.TempDir(), "vmaf.sock"), w, Options{MaxHeavy: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })

	// Two clients' image requests take the budget. They ask for other
	// widths: two requests for the same image would share one render.
	results := make(chan string, 2)
	for _, width := range []int{64, 32} {
		cs, _ := connectTest(t, s, "2025-11-25")
		go func() {
			res, err := cs.CallTool(t.Context(), callParams(toolWorstFrames, map[string]any{"n": 4, "images": "all", "max_width": width}))
			if err != nil {
				results <- err.Error()
				return
			}
			results <- resultText(res)
		}()
	}
	waitFor(t, time.Minute, "two expensive reads to run", func() bool { return inImage.Load() == 2 })

	// Every other expensive read, from any client, is refused at once.
	other, _ := connectTest(t, s, "2025-11-25")
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{toolWorstFrames, map[string]any{"images": "distorted"}},
		{toolScore, map[string]any{"from": 0, "to": 9999}},
		{toolScore, map[string]any{"last": 1000}},
		{toolDiagnose, map[string]any{"from": 0, "to": 10}},
	} {
		res := callTool(t, other, tc.tool, tc.args)
		if !res.IsError || !strings.Contains(resultText(res), "busy") || !strings.Contains(resultText(res), "2 expensive reads") {
			t.Errorf("%s %v while two run: %s", tc.tool, tc.args, resultText(res))
		}
	}
	// Light reads are answered.
	var st Status
	decode(t, callTool(t, other, toolStatus, nil), &st)
	if res := callTool(t, other, toolWorstFrames, map[string]any{"images": "none"}); res.IsError {
		t.Errorf("worst frames without images: %s", resultText(res))
	}
	if res := callTool(t, other, toolScore, map[string]any{"last": 5}); res.IsError {
		t.Errorf("the latest 5 scores: %s", resultText(res))
	}

	close(release)
	for range 2 {
		if got := <-results; strings.Contains(got, "busy") || strings.Contains(got, "error") {
			t.Errorf("a read that held the budget: %.200s", got)
		}
	}
	if m := maxIn.Load(); m > 2 {
		t.Errorf("%d expensive reads ran at once, budget 2", m)
	}
	niceSeen.Range(func(k, _ any) bool {
		if k.(int) != heavyNice {
			t.Errorf("an expensive read ran at nice %d, want %d", k, heavyNice)
		}
		return true
	})
	// The budget is free again.
	if res := callTool(t, other, toolWorstFrames, map[string]any{"images": "all", "n": 1}); res.IsError {
		t.Errorf("after the reads ended: %s", resultText(res))
	}
}

func callParams(name string, args map[string]any) *mcp.CallToolParams {
	return &mcp.CallToolParams{Name: name, Arguments: args}
}

// TestFaultHeavyCPUShare: expensive reads together use at most their
// share of the CPU; past it, the next one is refused as busy, saying so.
func TestFaultHeavyCPUShare(t *testing.T) {
	w := newWorstFake(1, 1, 16, 16)
	img := w.frames[0].Image
	w.frames[0].Image = func(name string, maxWidth int) (image.Image, error) {
		for t0 := threadCPU(); threadCPU()-t0 < 20*time.Millisecond; {
		}
		return img(name, maxWidth)
	}
	s, err := Start(filepath.Join(t.TempDir(), "vmaf.sock"), w, Options{HeavyCPUShare: 0.0001, HeavyWait: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	cs, _ := connectTest(t, s, "2025-11-25")
	if res := callTool(t, cs, toolWorstFrames, map[string]any{"n": 1}); res.IsError {
		t.Fatalf("first read: %s", resultText(res))
	}
	res := callTool(t, cs, toolWorstFrames, map[string]any{"n": 1})
	if !res.IsError || !strings.Contains(resultText(res), "used their share of the CPU") {
		t.Errorf("a read past the CPU share: %s", resultText(res))
	}
	// Light reads are not held back.
	if res := callTool(t, cs, toolWorstFrames, map[string]any{"images": "none"}); res.IsError {
		t.Errorf("records only: %s", resultText(res))
	}
}
