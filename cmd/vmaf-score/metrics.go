package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/control/attach"
	"github.com/vmafsink/vmafsink/metrics"
)

// With --metrics-addr the pairs go through a pipeline.Runner, as with
// --mcp-uds, and Prometheus metrics are served for it while the run
// lasts, under element="vmaf-score".

// metricsElement is the element label of vmaf-score's metrics.
const metricsElement = "vmaf-score"

// useRunner reports whether the run scores through a pipeline.Runner:
// for the control plane or for the metrics.
func (s *settings) useRunner() bool {
	return s.serveMCP() || s.metricsAddr != "" || s.metricsPush != "" || s.worstDir != ""
}

// noControl stands for startControl when only --metrics-addr asked for
// a Runner.
func noControl(attach.Config) (io.Closer, error) { return nil, nil }

// startMetrics serves the Runner's metrics with --metrics-addr; they stop
// with the control plane (closeServer). A port in use is an error here,
// which ends the run before it reads a frame.
func (rs *runnerSink) startMetrics(addr string, stderr io.Writer) error {
	if addr == "" {
		return nil
	}
	cfg := metrics.Config{Addr: addr, Element: metricsElement, Runner: rs.r}
	if p, ok := rs.srv.(interface{ Server() *control.Server }); ok {
		cfg.Clients = p.Server().Clients
	}
	ex, err := metrics.Start(cfg)
	if err != nil {
		return fmt.Errorf("--metrics-addr %s: %w", addr, err)
	}
	// With port 0 this is the only way a scraper learns the port.
	fmt.Fprintf(stderr, "vmaf-score: Prometheus metrics on http://%s/metrics\n", ex.Addr())
	rs.srv = closers{rs.srv, ex}
	return nil
}

// closers closes each of its closers that is not nil, all of them even
// when one fails.
type closers []io.Closer

func (c closers) Close() error {
	var errs []error
	for _, x := range c {
		if x != nil {
			errs = append(errs, x.Close())
		}
	}
	return errors.Join(errs...)
}
