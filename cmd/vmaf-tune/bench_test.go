package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/tune"
)

// BenchmarkSearchVersusTempFiles runs one CRF search two ways on the same
// machine and reports wall time and peak resident memory of each: this
// command (one process: the source decoded once, probes encoded and
// scored in memory), and the usual way, the same probes (the CRFs the
// search chose, in its order) as separate `ffmpeg` encodes to temporary
// files each scored by a separate `vmaf-score` run. Peak memory is the
// largest resident set of any process of the run (the usual way's run one
// after another). Run it alone, under the benchmark lock:
//
//	flock /tmp/bench.lock go test -run XXX -bench SearchVersusTempFiles -benchtime 3x ./cmd/vmaf-tune
func BenchmarkSearchVersusTempFiles(b *testing.B) {
	ref := clips.Y4M(b, "flower_576x324_ref.y4m")
	// 240 frames: the clip five times over, as y4m, which both ways read.
	src := clips.FFmpeg(b, "bench-src.y4m", "-stream_loop", "4", "-i", ref, "-f", "yuv4mpegpipe")
	dir := b.TempDir()
	tuneBin := filepath.Join(dir, "vmaf-tune")
	if out, err := exec.Command("go", "build", "-o", tuneBin, ".").CombinedOutput(); err != nil {
		b.Fatalf("building vmaf-tune: %v\n%s", err, out)
	}
	scoreBin := vmafScore(b)
	search := []string{"crf-search", "-i", src, "--encoder", "libx264", "--preset", "medium", "--target", "93",
		"--json", "-q", "--no-cache", "--threads", "2"}

	var probes []tune.ProbeReport
	var pixFmt = "yuv420p"
	b.Run("vmaf-tune", func(b *testing.B) {
		var wall time.Duration
		var peak int64
		for i := 0; i < b.N; i++ {
			out, d, rss := timed(b, tuneBin, search...)
			wall += d
			peak = max(peak, rss)
			var r tune.CRFResult
			if err := json.Unmarshal(out, &r); err != nil {
				b.Fatal(err)
			}
			probes = r.Probes
		}
		b.ReportMetric(wall.Seconds()/float64(b.N), "s/search")
		b.ReportMetric(float64(peak)/1024, "MiB-peak")
		b.ReportMetric(float64(len(probes)), "encodes")
	})
	b.Run("ffmpeg+vmaf-score", func(b *testing.B) {
		var wall time.Duration
		var peak int64
		for i := 0; i < b.N; i++ {
			for k, p := range probes {
				tmp := filepath.Join(dir, "probe"+strconv.Itoa(k)+".mp4")
				args := append([]string{"-v", "error", "-y", "-i", src, "-c:v", "libx264", "-preset", "medium",
					"-crf", strconv.FormatFloat(p.CRF, 'f', -1, 64), "-pix_fmt", pixFmt}, tmp)
				_, d, rss := timed(b, "ffmpeg", args...)
				wall += d
				peak = max(peak, rss)
				_, d, rss = timed(b, scoreBin, "-r", src, "-d", tmp, "-q", "--threads", "2")
				wall += d
				peak = max(peak, rss)
				os.Remove(tmp)
			}
		}
		b.ReportMetric(wall.Seconds()/float64(b.N), "s/search")
		b.ReportMetric(float64(peak)/1024, "MiB-peak")
		b.ReportMetric(float64(len(probes)), "encodes")
	})
}

// timed runs a command and returns its output, wall time and peak
// resident set (KiB).
func timed(b *testing.B, name string, args ...string) ([]byte, time.Duration, int64) {
	b.Helper()
	cmd := exec.Command(name, args...)
	start := time.Now()
	out, err := cmd.Output()
	d := time.Since(start)
	if err != nil {
		b.Fatalf("%s %v: %v", name, args, err)
	}
	return out, d, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
}
