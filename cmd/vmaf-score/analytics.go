package main

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

// The live analytics options (--pool-percentiles, --window-*, --alert-*)
// fill settings.live, an analytics.Config. A run with any of them on
// feeds each frame's first model score to an analytics.Monitor: its own
// when the engine scores directly, the Runner's with --mcp-uds or
// --mcp-http (so that the control plane sees the same windows and
// alerts). The windows and drops go to the output file, the drops to
// stderr as they begin and end, and the threshold and drops to --plot.

// on reports whether any analytics option is set.
func liveOn(c analytics.Config) bool {
	return len(c.Percentiles) > 0 || c.WindowFrames > 0 || c.WindowDuration > 0 || c.AlertThreshold > 0
}

// parseWindowDuration reads --window-duration: a Go duration ("2s",
// "500ms", "1m30s") or a plain number of seconds ("2", "0.5").
func parseWindowDuration(v string) (time.Duration, error) {
	if sec, err := strconv.ParseFloat(v, 64); err == nil {
		d := time.Duration(sec * float64(time.Second))
		if sec <= 0 || sec > 1e6 || d <= 0 {
			return 0, invalid(v, "--window-duration", "a positive duration (2s, 500ms) or number of seconds")
		}
		return d, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, invalid(v, "--window-duration", "a positive duration (2s, 500ms) or number of seconds")
	}
	return d, nil
}

// parseThreshold reads --alert-threshold: a VMAF score in (0,100].
func parseThreshold(v string) (float64, error) {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || !(x > 0 && x <= 100) {
		return 0, invalid(v, "--alert-threshold", "a VMAF score above 0 and at most 100")
	}
	return x, nil
}

// checkLive applies the analytics' own rules to the options given.
func (s *settings) checkLive() error {
	c := s.live
	switch {
	case c.WindowStep > 0 && c.WindowFrames == 0:
		return usagef("--window-step needs --window-frames")
	case c.AlertFrames > 0 && c.AlertThreshold == 0:
		return usagef("--alert-frames needs --alert-threshold")
	case c.WindowFrames > 0 && c.WindowDuration > 0:
		return usagef("--window-frames and --window-duration are exclusive")
	case !liveOn(c):
		return nil
	case s.noPrediction:
		return usagef("--pool-percentiles, --window-* and --alert-* follow the model's score, which --no_prediction leaves out")
	}
	if err := c.Validate(); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// reportOptions adds what the output file carries of the analytics.
// With windows or drops the file is committed once a second rather than
// after every frame: they are rewritten with the trailer at each commit.
func (s *settings) reportOptions(o report.Options) report.Options {
	o.Percentiles = s.live.Percentiles
	o.Windows = s.live.WindowFrames > 0 || s.live.WindowDuration > 0
	o.Alerts = s.live.AlertThreshold > 0
	if o.Windows || o.Alerts {
		o.CommitInterval = time.Second
	}
	return o
}

// liveRun connects a run's Monitor to the output, stderr and the plot.
type liveRun struct {
	mon    *analytics.Monitor
	own    bool // the job feeds mon (no Runner)
	cancel func()

	// times holds the running time of the pairs submitted and not yet
	// scored, for a Monitor the job feeds; results come back in order.
	mu    sync.Mutex
	times []timedPair
	end   time.Duration // the end of the last pair submitted; NoTime when unknown
}

type timedPair struct {
	index int
	t     time.Duration
}

// startLiveFor subscribes the job to the Monitor of the sink's Runner,
// or to one of its own, fed by the results, when the engine scores
// directly.
func (j *job) startLiveFor(sk sink) error {
	if !liveOn(j.s.live) {
		return nil
	}
	var mon *analytics.Monitor
	if rs, ok := sk.(*runnerSink); ok {
		mon = rs.monitor()
	}
	lr := &liveRun{mon: mon, end: analytics.NoTime}
	if mon == nil {
		m, err := analytics.New(j.s.live)
		if err != nil {
			return err
		}
		lr.mon, lr.own = m, true
	}
	if j.plot != nil {
		j.plot.threshold = j.s.live.AlertThreshold
	}
	lr.cancel = lr.mon.Subscribe(j.onLiveEvent)
	j.live = lr
	if lr.own {
		j.results.live = lr
	}
	return nil
}

// addLive feeds the job's Monitor with the first model's score of r;
// metrics are r's named by the models' keys.
func (rs *results) addLive(r *vmaf.Result, metrics []vmaf.Metric) {
	if len(r.Models) == 0 {
		return
	}
	key, ok := rs.keys.Key(r.Models[0])
	if !ok {
		return
	}
	for _, m := range metrics {
		if m.Name == key {
			rs.live.add(r.Index, key, m.Value)
			return
		}
	}
}

// onLiveEvent runs on the goroutine that scores (the engine's, or the
// Runner's publisher), as the output's frames do.
func (j *job) onLiveEvent(ev analytics.Event) {
	if w := ev.Window; w != nil && j.out != nil {
		j.out.AddWindow(*w)
	}
	if w := ev.Window; w != nil && j.plot != nil {
		j.plot.window(*w)
	}
	a := ev.Alert
	if a == nil {
		return
	}
	if j.out != nil {
		j.out.AddAlert(*a)
	}
	if j.plot != nil {
		j.plot.alert(*a)
	}
	if !j.s.quiet {
		j.printAlert("vmaf-score: " + alertLine(a))
	}
}

// printAlert writes line to stderr, over the progress line if one is
// drawn (its next update draws it again below).
func (j *job) printAlert(line string) {
	p := j.prog
	if p == nil {
		fmt.Fprintln(j.stderr, line)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.w != nil {
		fmt.Fprint(p.w, "\r\033[K")
	}
	fmt.Fprintln(j.stderr, line)
}

// alertLine describes a drop's begin or end in one line.
func alertLine(a *analytics.Alert) string {
	th := strconv.FormatFloat(a.Threshold, 'f', -1, 64)
	if a.State == analytics.AlertBegin {
		return fmt.Sprintf("alert %d begin: %s below %s since frame %d%s (%d frames, min %.3f, mean %.3f)",
			a.ID, a.Model, th, a.First, atTime(a.Start), a.Frames, a.Min, a.Mean)
	}
	why := "recovered"
	if a.AtEOS {
		why = "at the end of the stream"
	}
	return fmt.Sprintf("alert %d end: %s below %s over frames %d-%d%s (%d frames, min %.3f, mean %.3f), %s",
		a.ID, a.Model, th, a.First, a.Last, spanTime(a.Start, a.End), a.Frames, a.Min, a.Mean, why)
}

func atTime(t time.Duration) string {
	if t < 0 {
		return ""
	}
	return fmt.Sprintf(" (%.3f s)", t.Seconds())
}

func spanTime(from, to time.Duration) string {
	if from < 0 || to < 0 {
		return ""
	}
	return fmt.Sprintf(" (%.3f-%.3f s)", from.Seconds(), to.Seconds())
}

// submitted records a pair's running time before the engine has it.
func (lr *liveRun) submitted(index int, f frame) {
	if lr == nil || !lr.own {
		return
	}
	t := analytics.NoTime
	if f.pts != noPTS && f.pts >= 0 {
		t = f.pts
	}
	lr.mu.Lock()
	lr.times = append(lr.times, timedPair{index, t})
	lr.end = analytics.NoTime
	if t >= 0 && f.dur > 0 {
		lr.end = t + f.dur
	}
	lr.mu.Unlock()
}

// timeOf takes the running time of pair index, forgetting the pairs
// before it (subsampled, not scored).
func (lr *liveRun) timeOf(index int) time.Duration {
	lr.mu.Lock()
	defer lr.mu.Unlock()
	for len(lr.times) > 0 && lr.times[0].index < index {
		lr.times = lr.times[1:]
	}
	if len(lr.times) > 0 && lr.times[0].index == index {
		t := lr.times[0].t
		lr.times = lr.times[1:]
		return t
	}
	return analytics.NoTime
}

// add feeds a Monitor the job owns with a frame's first model score;
// metrics are named by the models' keys.
func (lr *liveRun) add(index int, key string, score float64) {
	if lr == nil || !lr.own {
		return
	}
	lr.mon.Add(analytics.Sample{Index: index, RunningTime: lr.timeOf(index), Model: key, Score: score})
}

// finish ends the drop still open at the end of the stream, before the
// output is closed.
func (lr *liveRun) finish() {
	if lr == nil {
		return
	}
	if lr.own {
		lr.mu.Lock()
		end := lr.end
		lr.mu.Unlock()
		lr.mon.Finish(end)
	}
	lr.cancel()
}

// activeAlert is the progress line's note of an open drop.
func (lr *liveRun) activeAlert() string {
	if lr == nil {
		return ""
	}
	a, ok := lr.mon.ActiveAlert()
	if !ok {
		return ""
	}
	return fmt.Sprintf("  ALERT %d: %.3f min since frame %d", a.ID, a.Min, a.First)
}

// monitor is the Runner's Monitor, which the control plane reads too.
func (rs *runnerSink) monitor() *analytics.Monitor { return rs.r.Analytics() }
