package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// tool is one scorer: a binary and the arguments that select its variant.
type tool struct {
	name string
	bin  string
	args []string
}

// sample is what one run of a tool cost and scored.
type sample struct {
	wall   time.Duration
	cpu    time.Duration // user + system, all threads
	maxRSS int64         // KiB
	load   float64       // 1-minute load average when the run started; NaN if unknown
	scores
}

// scores is the part of libvmaf's JSON log the tools are checked on.
type scores struct {
	pooled float64   // pooled_metrics.vmaf.mean
	frames []float64 // frames[].metrics.vmaf
}

func (s sample) fps() float64 { return float64(len(s.frames)) / s.wall.Seconds() }

// runOnce scores bc with t, writing its log to out.
func runOnce(t tool, bc benchCase, c config, threads int, out string) (sample, error) {
	args := append(append([]string{}, t.args...),
		"-r", bc.ref, "-d", bc.dist,
		"-w", strconv.Itoa(bc.width), "-h", strconv.Itoa(bc.height),
		"-p", c.pixFmt, "-b", strconv.Itoa(c.depth),
		"--threads", strconv.Itoa(threads), "-q", "--json", "-o", out)
	if c.feature != "" {
		args = append(args, "-n", "--feature", c.feature)
	} else {
		args = append(args, "-m", "version=vmaf_v0.6.1")
	}
	var msg bytes.Buffer
	cmd := exec.Command(t.bin, args...)
	cmd.Stdout, cmd.Stderr = &msg, &msg
	s := sample{load: loadAverage()}
	start := time.Now()
	err := cmd.Run()
	s.wall = time.Since(start)
	if err != nil {
		text := strings.TrimSpace(msg.String())
		if len(text) > 600 {
			text = "..." + text[len(text)-600:]
		}
		return s, fmt.Errorf("%s %s: %w\n%s", t.bin, strings.Join(args, " "), err, text)
	}
	st := cmd.ProcessState
	s.cpu = st.UserTime() + st.SystemTime()
	s.maxRSS = maxRSSKiB(st)
	s.scores, err = readScores(out, c.metric)
	if err != nil {
		return s, fmt.Errorf("%s: %w", t.name, err)
	}
	return s, nil
}

func readScores(path, metric string) (scores, error) {
	f, err := os.Open(path)
	if err != nil {
		return scores{}, fmt.Errorf("reading score log: %w", err)
	}
	defer f.Close()
	return parseScores(f, path, metric)
}

func parseScores(r io.Reader, name, metric string) (scores, error) {
	var log struct {
		Frames []struct {
			Metrics map[string]*float64 `json:"metrics"`
		} `json:"frames"`
		Pooled map[string]struct {
			Mean *float64 `json:"mean"`
		} `json:"pooled_metrics"`
	}
	if err := json.NewDecoder(r).Decode(&log); err != nil {
		return scores{}, fmt.Errorf("parsing score log %s: %w", name, err)
	}
	var s scores
	p, ok := log.Pooled[metric]
	if !ok || p.Mean == nil {
		return s, fmt.Errorf("score log %s: no pooled %s mean", name, metric)
	}
	s.pooled = *p.Mean
	for i, f := range log.Frames {
		v := f.Metrics[metric]
		if v == nil {
			return s, fmt.Errorf("score log %s: frame %d has no %s", name, i, metric)
		}
		s.frames = append(s.frames, *v)
	}
	if len(s.frames) == 0 {
		return s, fmt.Errorf("score log %s: no frames", name)
	}
	return s, nil
}

// disagreement is how far b's scores are from a's: pooled and the worst
// frame. Different frame counts are an infinite difference.
func disagreement(a, b scores) (pooled, frame float64) {
	pooled = math.Abs(a.pooled - b.pooled)
	if len(a.frames) != len(b.frames) {
		return pooled, math.Inf(1)
	}
	for i := range a.frames {
		frame = max(frame, math.Abs(a.frames[i]-b.frames[i]))
	}
	return pooled, frame
}

// loadAverage is the 1-minute load average, NaN where /proc has none.
func loadAverage() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return math.NaN()
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// benchAll times every tool on every case and thread count, interleaving the
// tools run by run, and checks that each run scores as the first tool did in
// the same round.
func benchAll(c config, progress io.Writer) ([]row, error) {
	var rows []row
	for _, bc := range c.cases {
		for _, threads := range c.threads {
			r := row{size: bc.size(), threads: threads, samples: make([][]sample, len(c.tools))}
			for round := 0; round < c.runs; round++ {
				for i, t := range c.tools {
					out := filepath.Join(c.workDir, fmt.Sprintf("%s-t%d-%d-%d.json", bc.size(), threads, round, i))
					s, err := runOnce(t, bc, c, threads, out)
					if err != nil {
						return rows, fmt.Errorf("%s, %d threads: %w", bc.size(), threads, err)
					}
					os.Remove(out)
					r.samples[i] = append(r.samples[i], s)
					if i > 0 {
						p, f := disagreement(r.samples[0][round].scores, s.scores)
						r.worstPooled, r.worstFrame = max(r.worstPooled, p), max(r.worstFrame, f)
					}
				}
			}
			rows = append(rows, r)
			fmt.Fprintf(progress, "%s threads=%d:", r.size, threads)
			for i, t := range c.tools {
				fmt.Fprintf(progress, " %s %.1f fps,", t.name, r.medianFPS(i))
			}
			fmt.Fprintf(progress, " |dVMAF| pooled %.2g frame %.2g, load %.1f\n", r.worstPooled, r.worstFrame, r.meanLoad())
		}
	}
	return rows, nil
}
