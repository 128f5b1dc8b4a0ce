package metrics

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/pprof"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/vmafsink/vmafsink/pipeline"
)

// Config configures an Exporter.
type Config struct {
	// Addr is the HOST:PORT the HTTP listener binds, exactly as given:
	// there is no default, and a wildcard host ("", 0.0.0.0, ::) is
	// bound only when given. Port 0 lets the system choose (see
	// Exporter.Addr).
	Addr string
	// Element names the element in the element label (vmaf-score's is
	// "vmaf-score").
	Element string
	Runner  *pipeline.Runner
	// Clients, if set, counts the control plane's connected clients
	// (vmaf_control_clients); without it that metric is not exported.
	Clients func() int
	// Logger receives the HTTP server's errors (default: discarded).
	Logger *slog.Logger
}

// Exporter is one Runner's metrics, served over HTTP once Started.
type Exporter struct {
	reg    *prometheus.Registry
	runner *pipeline.Runner
	scores *scores
	rate   *rate
	unsub  func()

	srv       *http.Server
	ln        net.Listener
	served    chan struct{} // closed when Serve returns
	closeOnce sync.Once
}

// shutdownTimeout bounds how long Close waits for scrapes in progress:
// the host's stop must not hang on a slow scraper.
const shutdownTimeout = 2 * time.Second

// New builds the exporter's registry and subscribes to the Runner's
// records, without serving: Start serves it. Call it before the Runner
// publishes its first record, or the histogram misses the records before.
func New(cfg Config) (*Exporter, error) {
	if cfg.Runner == nil {
		return nil, errors.New("metrics: nil runner")
	}
	if cfg.Element == "" {
		return nil, errors.New("metrics: empty element name")
	}
	e := &Exporter{
		reg:    prometheus.NewRegistry(),
		runner: cfg.Runner,
		scores: newScores(),
		rate:   newRate(cfg.Runner),
	}
	// The process's own collectors carry no element label: they describe
	// the process, whichever element serves them.
	e.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	labelled := prometheus.WrapRegistererWith(prometheus.Labels{"element": cfg.Element}, e.reg)
	for _, c := range []prometheus.Collector{
		e.scores.hist,
		&runnerCollector{r: cfg.Runner, scores: e.scores, rate: e.rate, clients: cfg.Clients},
		analyticsCollector{cfg.Runner.Analytics()},
	} {
		if err := labelled.Register(c); err != nil {
			e.rate.stop()
			return nil, fmt.Errorf("metrics: element %q: %w", cfg.Element, err)
		}
	}
	e.unsub = cfg.Runner.Subscribe(e.scores.observe)
	return e, nil
}

// Start builds an exporter as New does and serves /metrics on cfg.Addr.
// An address that cannot be bound (in use, not local, malformed) is an
// error here, not later.
func Start(cfg Config) (*Exporter, error) {
	if err := checkAddr(cfg.Addr); err != nil {
		return nil, err
	}
	e, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if err := e.serve(cfg.Addr, cfg.Logger); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// checkAddr refuses an address without a port or with a port that is not
// a number, before net.Listen would guess what was meant.
func checkAddr(addr string) error {
	if addr == "" {
		return errors.New("metrics: no listen address (HOST:PORT, e.g. 127.0.0.1:9464)")
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("metrics: listen address %q: want HOST:PORT, e.g. 127.0.0.1:9464: %w", addr, err)
	}
	if n, err := strconv.ParseUint(port, 10, 16); err != nil || (n == 0 && port != "0") {
		return fmt.Errorf("metrics: listen address %q: port %q is not a number from 0 to 65535", addr, port)
	}
	return nil
}

func (e *Exporter) serve(addr string, logger *slog.Logger) error {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("metrics: listen on %s: %w", addr, err)
	}
	handler := promhttp.InstrumentMetricHandler(e.reg, promhttp.HandlerFor(e.reg, promhttp.HandlerOpts{
		ErrorLog:      slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		ErrorHandling: promhttp.ContinueOnError,
		Registry:      e.reg,
		// A scrape is cheap; more than a few at once is a misbehaving
		// client, which must not take the host's CPU.
		MaxRequestsInFlight: 4,
		Timeout:             10 * time.Second,
	}))
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", handler)
	e.ln = ln
	e.srv = &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	e.served = make(chan struct{})
	// The label shows what serving costs in a CPU profile of the host
	// (go tool pprof -tagfocus vmafsink=metrics).
	pprof.Do(context.Background(), pprof.Labels("vmafsink", "metrics"), func(context.Context) {
		go func() {
			defer close(e.served)
			if err := e.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				logger.Warn("metrics: serving stopped", "err", err)
			}
		}()
	})
	return nil
}

// Addr is the address the listener is bound to (with the port the system
// chose for port 0), or "" when not serving.
func (e *Exporter) Addr() string {
	if e.ln == nil {
		return ""
	}
	return e.ln.Addr().String()
}

// Gatherer is the exporter's registry, for tests and for hosts that
// serve it themselves.
func (e *Exporter) Gatherer() prometheus.Gatherer { return e.reg }

// Close stops serving (waiting at most shutdownTimeout for scrapes in
// progress), ends the subscription and the rate sampler. It may be
// called more than once.
func (e *Exporter) Close() error {
	var err error
	e.closeOnce.Do(func() {
		e.unsub()
		e.rate.stop()
		if e.srv == nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		if err = e.srv.Shutdown(ctx); err != nil {
			err = errors.Join(fmt.Errorf("metrics: shutdown: %w", err), e.srv.Close())
		}
		<-e.served
	})
	return err
}
