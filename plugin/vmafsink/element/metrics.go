package element

import (
	"fmt"
	"log/slog"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/metrics"
)

// startMetrics serves Prometheus metrics when metrics-addr is set. Like
// mcp-http, an address that cannot be bound (a port in use) refuses the
// start, as an element error naming the property.
func (st *runState) startMetrics() error {
	addr := st.settings.metricsAddr
	if addr == "" {
		return nil
	}
	cfg := metrics.Config{Addr: addr, Element: st.e.name(), Runner: st.runner, Logger: slog.New(&slogHandler{e: st.e})}
	// The control plane, when served, tells how many clients it has.
	if p, ok := st.control.(interface{ Server() *control.Server }); ok {
		cfg.Clients = p.Server().Clients
	}
	ex, err := metrics.Start(cfg)
	if err != nil {
		return fmt.Errorf("metrics-addr %q: %w", addr, err)
	}
	st.metrics = ex
	cfg.Logger.Info("serving Prometheus metrics", "url", "http://"+ex.Addr()+"/metrics")
	return nil
}

// stopMetrics stops serving; scrapes in progress get a short while.
func (st *runState) stopMetrics() {
	if st.metrics == nil {
		return
	}
	if err := st.metrics.Close(); err != nil {
		st.e.warn("metrics server did not shut down cleanly", err.Error())
	}
	st.metrics = nil
}
