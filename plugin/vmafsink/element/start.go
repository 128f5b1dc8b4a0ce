package element

/*
#include "gstglue.h"
*/
import "C"

import (
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/vmaf"
)

// start builds a run from the settings, one concern at a time: the
// model, the Runner, the bus messages, the control plane, the results
// file. Errors name the property at fault; a refused start releases what
// it had built and leaves no file touched.
func start(e *vmafSink, s settings) (*runState, error) {
	spareProcessor()
	features, err := s.features()
	if err != nil {
		return nil, err
	}
	if err := e.prepareLearned(&s); err != nil {
		return nil, err
	}
	if err := s.checkRateSettings(); err != nil {
		return nil, err
	}
	spec, model, err := loadModel(s, features)
	if err != nil {
		return nil, err
	}
	live, err := s.analyticsConfig()
	if err != nil {
		return nil, err
	}
	var st *runState // set before the first push, which is when OnApplied may run
	scorer := scorerConfig(e, s, model, features)
	var unplayed func() bool
	if !s.noReference {
		// In no-reference mode the inner sink prerolls the distorted
		// stream, whose pairs are complete as they arrive.
		unplayed = func() bool { return st.gate.unplayed(C.vs_inner_sink_playing(e.self) != 0) }
	}
	runner, err := newRunner(e, s, scorer, live, func(kind pipeline.CommandKind, next int) { st.applied(kind, next) }, unplayed)
	if err != nil {
		return nil, err
	}
	st = &runState{e: e, settings: s, features: features, scorer: scorer, runner: runner, last: pipeline.Untimed}
	st.gate.init()
	st.startRates()
	st.codec.init(model)
	C.vs_set_lead_side(e.self, C.gint(s.leadSide()))
	for i := range st.pads {
		C.gst_segment_init(&st.pads[i].segment, C.GST_FORMAT_TIME)
	}
	st.startMessages()
	if err := st.startControl(spec); err != nil {
		st.abort()
		return nil, err
	}
	if err := st.startMetrics(); err != nil {
		st.abort()
		return nil, err
	}
	// Created last: a start refused for another reason leaves an earlier
	// run's results file as it was, and makes no directory.
	if err := s.checkWorstDir(); err != nil {
		st.abort()
		return nil, err
	}
	if err := st.startResults(); err != nil {
		st.abort()
		return nil, err
	}
	return st, nil
}

// loadModel parses the model the settings name and checks that the
// engine can score it, so that a setting it cannot honour (engine=libvmaf
// in a build without it, a model only libvmaf computes) is a settings
// error at start rather than a scoring failure once the pipeline runs.
func loadModel(s settings, features []string) (string, *vmaf.Model, error) {
	spec := s.tiny.options().Apply(s.modelSpec())
	// A codec-aware model may take its encoder from dist_sink's tags.
	model, err := vmaf.ParseStreamModelSpec(spec)
	if err != nil {
		return "", nil, fmt.Errorf("model %q: %w", spec, err)
	}
	if err := s.checkModel(model); err != nil {
		return "", nil, err
	}
	if err := s.checkNoReference(model, features); err != nil {
		return "", nil, err
	}
	probe, err := vmaf.NewContext(vmaf.Config{Models: []*vmaf.Model{model}, Features: features, Engine: s.engine.String()})
	if err != nil {
		if len(features) > 0 {
			return "", nil, fmt.Errorf("engine %s with model %q and features %q: %w", s.engine, spec, strings.Join(features, ";"), err)
		}
		return "", nil, fmt.Errorf("engine %s with model %q: %w", s.engine, spec, err)
	}
	probe.Close()
	return spec, model, nil
}

// scorerConfig is the engine's configuration for a run with settings s.
func scorerConfig(e *vmafSink, s settings, model *vmaf.Model, features []string) vmaf.Config {
	threads := int(s.threads)
	if threads == 0 {
		threads = runtime.NumCPU()
	}
	var workerSetup func() bool
	if s.serveMCP() && e.opts.Control != nil && e.opts.WorkerSetup != nil {
		workerSetup = e.opts.WorkerSetup()
	}
	return vmaf.Config{
		Models:    []*vmaf.Model{model},
		Features:  features,
		Threads:   threads,
		Subsample: int(s.subsample),
		Engine:    s.engine.String(),

		WorkerSetup: workerSetup,
	}
}

// newRunner makes the frame-boundary engine with the settings' pairing,
// back-pressure and pause behaviour.
func newRunner(e *vmafSink, s settings, scorer vmaf.Config, live analytics.Config, applied func(pipeline.CommandKind, int), unplayed func() bool) (*pipeline.Runner, error) {
	return pipeline.New(pipeline.Config{
		Scorer:          scorer,
		NoReference:     s.noReference,
		Pairing:         s.pairing,
		Backpressure:    s.backpressure,
		PauseMode:       s.pauseMode,
		MaxPending:      int(s.maxPending),
		MaxLead:         s.leadLimit(),
		WorstFrames:     s.worstFramesKept(),
		PauseBlockLimit: time.Duration(s.pauseBlockLimit) * time.Millisecond,
		OnPauseExpired: func(next int) {
			e.warn(fmt.Sprintf("block pause ended by pause-block-limit (%d ms) at frame %d; scoring resumed", s.pauseBlockLimit, next),
				"a pause in pause-mode=block holds the streams at most pause-block-limit")
		},
		OnApplied: applied,
		OnDropped: e.postDropQoS,
		Unplayed:  unplayed,
		Analytics: live,
	})
}

// startMessages subscribes the frame messages and score properties.
func (st *runState) startMessages() {
	st.frameMessage.Store(st.settings.frameMessage)
	st.messages = newFrameMessenger(st.e)
	st.e.framesScored.Store(0)
	st.panicHook = newPanicHook()
	st.unsub = append(st.unsub, st.runner.Subscribe(st.e.guard("frame messages", st.onRecord)))
	st.startLive()
}

// serveMCP reports whether the settings ask for the control plane.
func (s *settings) serveMCP() bool { return s.mcpUDS != "" || s.mcpHTTP != "" }

// mcpProps names the control plane's properties as set, for errors.
func (s *settings) mcpProps() string {
	var p []string
	if s.mcpUDS != "" {
		p = append(p, "mcp-uds")
	}
	if s.mcpHTTP != "" {
		p = append(p, "mcp-http")
	}
	return strings.Join(p, ", ")
}

// startControl serves the control plane when mcp-uds or mcp-http is set.
func (st *runState) startControl(spec string) error {
	s, e := &st.settings, st.e
	if !s.serveMCP() {
		if s.mcpHTTPTokenFile != "" {
			return fmt.Errorf("mcp-http-token-file is set without mcp-http")
		}
		return nil
	}
	if s.mcpHTTPTokenFile != "" && s.mcpHTTP == "" {
		return fmt.Errorf("mcp-http-token-file is set without mcp-http")
	}
	if s.mcpAllowGID == 0 {
		// The control plane reads 0 as "no group"; saying so beats
		// serving a socket the root group cannot use.
		return fmt.Errorf("mcp-allow-gid 0: the root group cannot be allowed (-1 for the owner only, or another group)")
	}
	if s.mcpReadOnlyGID == 0 {
		return fmt.Errorf("mcp-readonly-gid 0: the root group cannot be made read-only (-1 for none, or another group)")
	}
	if e.opts.Control == nil {
		e.warn(s.mcpProps()+" set but this build of vmafsink has no control plane", "control plane not served")
		return nil
	}
	control, err := e.opts.Control(ControlConfig{
		SocketPath: s.mcpUDS,
		HTTPAddr:   s.mcpHTTP,
		TokenFile:  s.mcpHTTPTokenFile,
		AllowGID:   s.mcpAllowGID,
		MaxClients: int(s.mcpMaxClients),
		ModelDirs:  s.modelDirList(),
		Element:    e.name(),
		Engine:     s.engine.String(),
		ModelSpec:  spec,
		Features:   st.features,
		Runner:     st.runner,
		Logger:     slog.New(&slogHandler{e: e}),
		// Members of mcp-readonly-gid read but do not command.
		ReadOnlyGID: s.mcpReadOnlyGID,
	})
	if err != nil {
		return fmt.Errorf("%s: %w", s.mcpProps(), err)
	}
	st.control = control
	return nil
}

// startResults opens results-filename when it is set.
func (st *runState) startResults() error {
	s := &st.settings
	if s.resultsFilename == "" {
		return nil
	}
	if s.up.resultsFormatSet && s.resultsFormat == resultsNone {
		st.e.logf(lvlInfo, "results-format=none: no results file, results-filename %q left alone", s.resultsFilename)
		return nil
	}
	results, err := createResults(s.resultsFilename, s.resultsFileFormat(), st.geometry)
	if err != nil {
		return fmt.Errorf("results-filename %q: %w", s.resultsFilename, err)
	}
	results.live = st.runner.Analytics().Config()
	st.results = results
	st.unsub = append(st.unsub, st.runner.Subscribe(st.e.guard("results file", results.write)))
	if results.live.WindowFrames > 0 || results.live.WindowDuration > 0 || results.live.AlertThreshold > 0 {
		st.unsub = append(st.unsub, st.runner.Analytics().Subscribe(st.e.guardEvent("results file", results.event)))
	}
	return nil
}
