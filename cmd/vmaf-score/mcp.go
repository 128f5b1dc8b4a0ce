package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/control/attach"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

// With --mcp-uds or --mcp-http the pairs go through a pipeline.Runner, the engine the
// GStreamer element uses: model swaps, pause and resume queued by an agent
// take effect between two pairs, and every record names the model that
// scored it, in the output file too.

// maxMCPRecent bounds --mcp-recent: the Runner's ring holds every kept
// record's metrics, allocated as the run fills it.
const maxMCPRecent = 100000

// startControl serves the MCP control plane for a Runner; tests replace it.
var startControl = func(cfg attach.Config) (io.Closer, error) { return attach.Start(cfg) }

type runnerSink struct {
	r      *pipeline.Runner
	cancel func()
	srv    io.Closer
	rec    vmaf.Result  // a record seen as a Result, for pooling
	push   *metricsPush // --metrics-push; nil without
	// worstDir is --worst-dir, written by finish; stderr for its lines
	// (nil with -q).
	worstDir string
	stderr   io.Writer
	// out is the results file, for --worst-dir's section; nil without.
	out *report.Writer
}

func (j *job) newRunnerSink() (sink, error) {
	scorer := j.engineConfig(nil)
	// The control plane answers promptly only with the workers lowered.
	scorer.WorkerSetup = attach.WorkerSetup()
	r, err := pipeline.New(pipeline.Config{
		Scorer:       scorer,
		Pairing:      pipeline.PairByOrder, // the aligner has paired them already
		Backpressure: pipeline.Block,
		PauseMode:    pipeline.PauseBlock, // a paused run stops reading, it skips nothing
		MaxHeld:      -1,                  // the inputs' buffers cover what the Runner holds
		OnApplied:    j.onApplied(),
		WorstFrames:  j.s.worstFramesOr(),
		Analytics:    j.s.live, // shared with the control plane
		Recent:       j.s.mcpRecent,
	})
	if err != nil {
		return nil, err
	}
	rs := &runnerSink{r: r, worstDir: j.s.worstDir, out: j.out}
	if !j.s.quiet {
		rs.stderr = j.stderr
	}
	rs.cancel = r.Subscribe(func(rec *pipeline.Record) {
		rs.rec = vmaf.Result{Index: rec.Index, Models: rec.Models, Metrics: rec.Metrics}
		model := ""
		if m := rec.Model(); m != nil {
			model = m.Version
		}
		j.results.write(&rs.rec, model)
	})
	spec := ""
	if len(j.s.models) > 0 {
		spec = j.s.models[0]
	}
	start := startControl
	if !j.s.serveMCP() {
		start = noControl // a Runner for --metrics-addr alone
	}
	logger, logFile, err := j.s.openControlLog(j.stderr)
	if err != nil {
		rs.cancel()
		r.Close()
		return nil, err
	}
	rs.srv, err = start(attach.Config{
		Socket:    j.s.mcpSocket,
		Runner:    r,
		ModelDirs: j.s.modelDirs,
		ModelSpec: spec,
		Engine:    j.s.engine,
		Features:  j.s.features,
		Options: control.Options{MaxSessions: j.s.mcpMaxClients,
			HTTPAddr: j.s.mcpHTTP, HTTPTokenFile: j.s.mcpTokenFile,
			ReadOnlyGID: j.s.mcpReadOnlyGID, Logger: logger},
	})
	if err != nil {
		if logFile != nil {
			logFile.Close()
		}
		rs.cancel()
		r.Close()
		return nil, fmt.Errorf("%s: %w", j.s.mcpFlags(), err)
	}
	if a, ok := rs.srv.(interface{ HTTPAddr() string }); ok && a.HTTPAddr() != "" {
		// With port 0 this is the only way a client learns the port.
		fmt.Fprintf(j.stderr, "vmaf-score: MCP on http://%s/mcp (HTTP+SSE on /sse)\n", a.HTTPAddr())
	}
	rs.srv = withControlLog(rs.srv, logFile)
	if err := rs.startMetrics(j.s.metricsAddr, j.stderr); err != nil {
		rs.cancel()
		rs.close()
		return nil, err
	}
	if err := rs.startPush(j.s.metricsPush); err != nil {
		rs.cancel()
		rs.close()
		return nil, err
	}
	return rs, nil
}

// serveMCP reports whether the run serves the control plane.
func (s *settings) serveMCP() bool { return s.mcpSocket != "" || s.mcpHTTP != "" }

// mcpFlags names the control plane's options as given, for errors.
func (s *settings) mcpFlags() string {
	var f []string
	if s.mcpSocket != "" {
		f = append(f, "--mcp-uds "+s.mcpSocket)
	}
	if s.mcpHTTP != "" {
		f = append(f, "--mcp-http "+s.mcpHTTP)
	}
	return strings.Join(f, ", ")
}

// releaser adapts a frame's release function to pipeline.Releaser; a func
// stored in an interface needs no allocation.
type releaser func()

func (f releaser) Release() { f() }

func pipelineFrame(f frame) pipeline.Frame {
	t := pipeline.Untimed
	if f.pts != noPTS {
		t.PTS, t.RunningTime, t.StreamTime = f.pts, f.pts, f.pts
	}
	if f.dur > 0 {
		t.Duration = f.dur
	}
	return pipeline.Frame{Picture: f.pic, Timing: t, Owner: releaser(f.release)}
}

func (rs *runnerSink) submit(r, d frame) error {
	if err := rs.r.Push(pipeline.Ref, pipelineFrame(r)); err != nil {
		d.release()
		return err
	}
	return rs.r.Push(pipeline.Dist, pipelineFrame(d))
}

// finish scores what is in flight and publishes the last records, then
// stops serving.
func (rs *runnerSink) finish() error {
	err := rs.r.Finish()
	if err == nil && rs.worstDir != "" {
		err = rs.writeWorst()
	}
	if perr := rs.pushMetrics(); err == nil {
		err = perr
	}
	rs.cancel()
	if cerr := rs.closeServer(); err == nil && cerr != nil {
		err = cerr
	}
	return err
}

func (rs *runnerSink) aggregates() []vmaf.Metric { return rs.r.Aggregates() }

func (rs *runnerSink) close() {
	if rs.push != nil {
		rs.push.ex.Close()
	}
	rs.closeServer()
	rs.r.Close()
}

func (rs *runnerSink) closeServer() error {
	if rs.srv == nil {
		return nil
	}
	err := rs.srv.Close()
	rs.srv = nil
	return err
}
