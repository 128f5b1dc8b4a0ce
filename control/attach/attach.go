package attach

import (
	"cmp"
	"fmt"
	"path/filepath"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/internal/version"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/swap"
	"github.com/vmafsink/vmafsink/vmaf"
)

// Config says what to serve and where.
type Config struct {
	Socket string // the Unix socket; empty: HTTP only (Options.HTTPAddr)
	Runner *pipeline.Runner
	// ModelDirs are the directories whose model files a swap may name
	// (the model-dirs property).
	ModelDirs []string
	// ModelSpec is the model the run started with; when it is a file, its
	// directory is allowed too (the operator chose it).
	ModelSpec string
	// Engine and Features are the scorer's engine and extra metrics; a
	// swapped-in model is checked against them before it is queued.
	Engine   string
	Features []string
	// Options tune the server (group access, buffers, timeouts).
	Options control.Options
	// View, if set, is what the server serves: the driver's view of the
	// Runner's target (a sweep names its probe in the status, say).
	View func(*Target) control.Target
}

// Plane is a running control plane.
type Plane struct {
	srv    *control.Server
	target *Target
}

// Start builds the target and serves it on cfg.Socket. It gives the Go
// scheduler spare processors (see spareProc), so that control requests
// are answered promptly while scoring keeps every CPU busy; the Runner's
// scorer should have WorkerSetup's function for the same reason.
func Start(cfg Config) (*Plane, error) {
	spareProc()
	t, err := NewTarget(cfg)
	if err != nil {
		return nil, err
	}
	var served control.Target = t
	if cfg.View != nil {
		served = cfg.View(t)
	}
	srv, err := control.Start(cfg.Socket, served, cfg.Options)
	if err != nil {
		t.Close()
		return nil, err
	}
	return &Plane{srv: srv, target: t}, nil
}

// Close disconnects the clients, removes the socket and stops following
// the Runner. The Runner itself is the driver's to close.
// A nil Plane (a Start that failed) has nothing to close.
func (p *Plane) Close() error {
	if p == nil {
		return nil
	}
	err := p.srv.Close()
	p.target.Close()
	return err
}

// HTTPAddr returns the address the HTTP transport listens on, or "".
func (p *Plane) HTTPAddr() string { return p.srv.HTTPAddr() }

// Server returns the MCP server.
func (p *Plane) Server() *control.Server { return p.srv }

// NewTarget adapts cfg.Runner to control.Target.
func NewTarget(cfg Config) (*Target, error) {
	if cfg.Runner == nil {
		return nil, fmt.Errorf("attach: no runner")
	}
	dirs := append([]string(nil), cfg.ModelDirs...)
	if f := specFile(cfg.ModelSpec); f != "" {
		dirs = append(dirs, filepath.Dir(f))
	}
	reg, err := swap.NewRegistry(dirs...)
	if err != nil {
		return nil, fmt.Errorf("attach: %w", err)
	}
	check := swap.EngineCheck(vmaf.Config{Engine: cfg.Engine, Features: cfg.Features})
	t := &Target{
		r:        cfg.Runner,
		swaps:    swap.NewManager(reg, swap.Options{Check: check}),
		model:    modelParts{check: check, describing: make(chan struct{}, maxDescribing), version: cmp.Or(cfg.Options.Version, version.String())},
		engine:   cfg.Engine,
		features: append([]string(nil), cfg.Features...),
		tickets:  make(map[uint64]*pipeline.Ticket),
	}
	return t, nil
}

// specFile returns the model file a spec names, if any.
func specFile(spec string) string {
	if spec == "" {
		return ""
	}
	s, err := vmaf.ParseModelSpecString(spec)
	if err != nil {
		return ""
	}
	return s.Path
}
