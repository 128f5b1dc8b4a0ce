package pipelines

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tests/pipelines/internal/gsttest"
)

// taskNices reads the nice value of every thread of a process.
func taskNices(pid int) map[int]int {
	dirs, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	out := map[int]int{}
	for _, d := range dirs {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/stat", pid, d.Name()))
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 17 {
			continue
		}
		tid, _ := strconv.Atoi(d.Name())
		if n, err := strconv.Atoi(f[16]); err == nil {
			out[tid] = n
		}
	}
	return out
}

// TestElementInstancesIndependent: two vmafsink elements in one pipeline,
// one serving the control plane with 2 scoring threads, the other without
// it with 3. Only the first's workers run at the lowered priority (nice
// +5) the control plane asks for: one element's settings do not reach
// the other's engine.
func TestElementInstancesIndependent(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "vmaf.sock")
	p := gsttest.Start(t, "videotestsrc is-live=true num-buffers=120 ! "+testSrcCaps+" ! tee name=t "+
		"t. ! queue ! a.ref_sink t. ! queue ! a.dist_sink t. ! queue ! b.ref_sink t. ! queue ! b.dist_sink "+
		"vmafsink name=a threads=2 frame-message=false mcp-uds="+sock+" "+
		"vmafsink name=b threads=3 frame-message=false", "VMAFSINK_WORKER_NICE=5")
	pid := p.Cmd.Process.Pid
	base := taskNices(pid)[pid]
	most := 0
	for done := false; !done; {
		select {
		case err := <-p.Done():
			if err != nil {
				t.Fatalf("gst-launch failed: %v\n%s", err, p.Output())
			}
			done = true
		case <-time.After(20 * time.Millisecond):
			n := 0
			for _, nice := range taskNices(pid) {
				if nice == base+5 {
					n++
				}
			}
			most = max(most, n)
		}
	}
	if most != 2 {
		t.Errorf("at most %d threads at nice %d while both elements scored, want element a's 2 workers only", most, base+5)
	}
	var scored []string
	for _, m := range gsttest.ParseMessages(p.Output()) {
		if m.Fields["type"] == "pooled" {
			scored = append(scored, m.Fields["frames-scored"])
		}
	}
	if len(scored) != 2 || scored[0] != "120" || scored[1] != "120" {
		t.Errorf("frames scored by the two elements: %v, want 120 each", scored)
	}
}
