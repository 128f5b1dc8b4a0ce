package pipelines

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/internal/y4m"
	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// splitY4M splits a y4m file of any chroma format and bit depth into its
// header line and frames (each with its FRAME line, which carries no
// parameters in the golden clips).
func splitY4M(t *testing.T, path string) (header []byte, frames [][]byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := y4m.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	nl := bytes.IndexByte(data, '\n')
	header = data[:nl+1]
	f := r.Format()
	size := len("FRAME\n") + f.FrameSize()
	body := data[nl+1:]
	if len(body)%size != 0 {
		t.Fatalf("%s: %d bytes are not whole %dx%d %s frames", path, len(body), f.Width, f.Height, f.Chroma)
	}
	for len(body) > 0 {
		frames, body = append(frames, body[:size]), body[size:]
	}
	return header, frames
}

// TestMCPWorstFrames scores a 1280x720 10-bit golden pair (its four
// frames four times over) with vmaf-score --mcp-uds, feeding it through
// FIFOs left open, so that the run stays up once every frame but the last
// (which waits for its successor's motion) is scored. The official
// TypeScript SDK then calls vmaf_worst_frames: its PNGs decode at 640x360
// (the kept size) and at max_width, and their frame indices are the
// lowest scores in the results file vmaf-score writes when its inputs end.
// vmafctl worst saves the same as PNG files.
func TestMCPWorstFrames(t *testing.T) {
	dir := tsClientDir(t)
	bin, _ := ffSetup(t)
	vmafctl := vmafctlBin(t)
	tmp := t.TempDir()
	sock, out := filepath.Join(tmp, "vmaf.sock"), filepath.Join(tmp, "out.json")
	ref, dist := filepath.Join(tmp, "ref.y4m"), filepath.Join(tmp, "dist.y4m")
	for _, p := range []string{ref, dist} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const loops = 4
	cmd := exec.Command(bin, "-r", ref, "-d", dist, "--json", "-o", out, "--threads", "2", "--mcp-uds", sock)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := make(chan struct{})
	fed := make(chan int, 2)
	for _, side := range []struct{ fifo, clip string }{{ref, "rain_1280x720_ref"}, {dist, "rain_1280x720_x265_crf30"}} {
		header, frames := splitY4M(t, gsttest.Clip(t, side.clip))
		go func() {
			f, err := os.OpenFile(side.fifo, os.O_WRONLY, 0)
			if err != nil {
				fed <- 0
				return
			}
			defer f.Close()
			n := 0
			if _, err := f.Write(header); err == nil {
				for range loops {
					for _, fr := range frames {
						if _, err := f.Write(fr); err != nil {
							break
						}
						n++
					}
				}
			}
			fed <- n
			<-stop // the input stays open: vmaf-score waits for more
		}()
	}
	stopped := false
	finish := func() {
		if !stopped {
			stopped = true
			close(stop)
		}
	}
	t.Cleanup(func() {
		finish()
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
		}
	})
	frames := min(<-fed, <-fed)
	if frames < 8 {
		t.Fatalf("fed %d frames: %s", frames, stderr.String())
	}

	// Every frame but the last is scored: its motion needs the next one.
	cs := mustConnect(t, &socketTransport{sock})
	var st control.Status
	deadline := time.Now().Add(120 * time.Second)
	for {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "vmaf_status", Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &st)
		if st.FramesScored >= uint64(frames-1) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d frames scored after 120 s: %s", st.FramesScored, frames-1, stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	cs.Close()
	lastScored := st.LastFrame

	node := exec.Command("node", "worst.mjs", sock, `{"images":"all"}`, `{"n":3,"max_width":160}`)
	node.Dir = dir
	node.Stderr = os.Stderr
	raw, err := node.Output()
	if err != nil {
		t.Fatalf("node worst.mjs: %v\n%s", err, raw)
	}
	var calls []struct {
		Structured control.WorstReply
		Content    []struct{ Type, Text, MimeType, Data string }
	}
	if err := json.Unmarshal(raw, &calls); err != nil || len(calls) != 2 {
		t.Fatalf("report %.300s: %v", raw, err)
	}
	for i, want := range []struct {
		frames, images, w, h int
		kinds                []string
	}{
		{8, 24, 640, 360, []string{"reference", "distorted", "difference"}},
		{3, 3, 160, 90, []string{"distorted"}},
	} {
		c := calls[i]
		if len(c.Structured.Frames) != want.frames || c.Structured.Kept != 8 {
			t.Fatalf("call %d: %d frames, kept %d", i, len(c.Structured.Frames), c.Structured.Kept)
		}
		var imgs, labels int
		for j, b := range c.Content {
			if b.Type != "image" {
				continue
			}
			data, err := base64.StdEncoding.DecodeString(b.Data)
			if err != nil || b.MimeType != "image/png" || len(data) < 100 {
				t.Fatalf("call %d block %d: %s, %d bytes (%v)", i, j, b.MimeType, len(data), err)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("call %d block %d: %v", i, j, err)
			}
			if bd := img.Bounds(); bd.Dx() != want.w || bd.Dy() != want.h {
				t.Errorf("call %d block %d: %v, want %dx%d", i, j, bd, want.w, want.h)
			}
			f := c.Structured.Frames[imgs/len(want.kinds)]
			label := "frame " + strconv.FormatInt(f.Frame, 10) + " " + want.kinds[imgs%len(want.kinds)] + " "
			if j == 0 || c.Content[j-1].Type != "text" || !strings.HasPrefix(c.Content[j-1].Text, label) {
				t.Errorf("call %d block %d: not labelled %q", i, j, label)
			} else {
				labels++
			}
			imgs++
		}
		if imgs != want.images || labels != imgs {
			t.Errorf("call %d: %d images, %d labelled, want %d", i, imgs, labels, want.images)
		}
	}
	worst := calls[0].Structured.Frames

	// vmafctl worst saves the same images.
	saved := filepath.Join(tmp, "worst")
	// Exit status 5 is busy: the expensive-read budget is spent for now.
	for deadline := time.Now().Add(2 * time.Minute); ; {
		ctl := exec.Command(vmafctl, "-s", sock, "worst", "-images", "all", "-o", saved)
		b, err := ctl.CombinedOutput()
		if err == nil {
			break
		}
		if ctl.ProcessState.ExitCode() != 5 || time.Now().After(deadline) {
			t.Fatalf("vmafctl worst: %v\n%s", err, b)
		}
		time.Sleep(500 * time.Millisecond)
	}
	files, _ := filepath.Glob(filepath.Join(saved, "frame-*.png"))
	if len(files) != 24 {
		t.Errorf("vmafctl worst saved %d files, want 24", len(files))
	}
	for _, name := range files {
		data, _ := os.ReadFile(name)
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil || img.Bounds().Dx() != 640 || img.Bounds().Dy() != 360 {
			t.Errorf("%s: %v (%v)", name, err, img.Bounds())
		}
	}
	if _, err := os.Stat(filepath.Join(saved, "frame-"+padFrame(worst[0].Frame)+"-difference.png")); err != nil {
		t.Errorf("no difference image for the worst frame: %v", err)
	}

	// The inputs end; the results file has every frame's score.
	finish()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("vmaf-score: %v\n%s", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("vmaf-score did not exit once its inputs ended")
	}
	log := ffReadFrames(t, out)
	if len(log.Frames) != frames {
		t.Fatalf("results file has %d frames, want %d", len(log.Frames), frames)
	}
	score := map[int64]float64{}
	var scores []float64
	for _, f := range log.Frames {
		if int64(f.FrameNum) <= lastScored {
			score[int64(f.FrameNum)] = f.Metrics["vmaf"]
			scores = append(scores, f.Metrics["vmaf"])
		}
	}
	slices.Sort(scores)
	for i, f := range worst {
		got, ok := score[f.Frame]
		if !ok || got != scores[i] {
			t.Errorf("rank %d: frame %d scores %v in the results file, want the rank's %v (lowest: %v)", i, f.Frame, got, scores[i], scores[:8])
		}
	}
}

func padFrame(n int64) string {
	s := strconv.FormatInt(n, 10)
	return strings.Repeat("0", max(0, 6-len(s))) + s
}

// TestMCPElementWorstFrames: the element (worst-frames at its default, 8)
// scoring 1280x720 frames from videotestsrc, paused in block mode so that
// nothing moves while the test looks: vmaf_worst_frames returns PNGs that
// decode at 640x360 whose frames are the lowest scores in the results
// file among those scored before the pause, and the run then ends with
// every frame accounted for, its buffers all given back.
func TestMCPElementWorstFrames(t *testing.T) {
	if _, err := exec.LookPath("gst-launch-1.0"); err != nil {
		t.Skip("gst-launch-1.0 is not installed")
	}
	dir := t.TempDir()
	sock, results := filepath.Join(dir, "vmaf.sock"), filepath.Join(dir, "results.json")
	desc := "videotestsrc pattern=ball ! video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! tee name=t " +
		"t. ! queue ! v.ref_sink t. ! queue ! videoflip method=horizontal-flip ! v.dist_sink " +
		"vmafsink name=v threads=1 frame-message=false pause-mode=block pause-block-limit=0 " +
		"results-filename=" + results + " results-format=json mcp-uds=" + sock
	p := gsttest.StartArgs(t, []string{"-e"}, desc)
	waitSocket(t, p, sock)
	cs, _ := mcpConnect(t, sock)
	mcpWaitStatus(t, cs, 60*time.Second, "20 frames scored", func(st control.Status) bool { return st.FramesScored >= 20 })
	var cmd control.Command
	if msg := mcpCall(t, cs, "vmaf_pause", map[string]any{"wait": true}, &cmd); msg != "" {
		t.Fatal(msg)
	}
	// Held in block mode, once the pairs in flight are scored the last
	// frame scored stays the last.
	st := mcpWaitStatus(t, cs, time.Minute, "the pause, with no pair in flight", func(st control.Status) bool {
		// Every pair received is scored but the last, whose score waits
		// for the next pair's motion.
		return st.State == control.StatePaused && st.FramesReceived <= st.FramesScored+st.FramesSkipped+st.FramesDropped+1
	})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "vmaf_worst_frames", Arguments: map[string]any{"images": "all"}})
	if err != nil || res.IsError {
		t.Fatalf("vmaf_worst_frames: %v %+v", err, res)
	}
	var reply control.WorstReply
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &reply); err != nil || len(reply.Frames) != 8 || reply.Kept != 8 {
		t.Fatalf("reply %s (%v)", b, err)
	}
	imgs := 0
	for _, c := range res.Content {
		ic, ok := c.(*mcp.ImageContent)
		if !ok {
			continue
		}
		img, err := png.Decode(bytes.NewReader(ic.Data))
		if err != nil || ic.MIMEType != "image/png" {
			t.Fatalf("image %d: %v (%s)", imgs, err, ic.MIMEType)
		}
		if bd := img.Bounds(); bd.Dx() != 640 || bd.Dy() != 360 {
			t.Errorf("image %d: %v, want 640x360", imgs, bd)
		}
		imgs++
	}
	if imgs != 24 {
		t.Errorf("%d images, want 24", imgs)
	}
	if msg := mcpCall(t, cs, "vmaf_resume", map[string]any{"wait": true}, &cmd); msg != "" {
		t.Fatal(msg)
	}
	cs.Close()
	stopControlled(t, p, sock, results, 30*time.Second)

	var scores []float64
	score := map[int64]float64{}
	for _, f := range ffReadFrames(t, results).Frames {
		if int64(f.FrameNum) <= st.LastFrame {
			score[int64(f.FrameNum)] = f.Metrics["vmaf"]
			scores = append(scores, f.Metrics["vmaf"])
		}
	}
	slices.Sort(scores)
	for i, f := range reply.Frames {
		if got, ok := score[f.Frame]; !ok || got != scores[i] {
			t.Errorf("rank %d: frame %d scores %v in the results file, want %v (lowest: %v)", i, f.Frame, got, scores[i], scores[:8])
		}
	}
}
