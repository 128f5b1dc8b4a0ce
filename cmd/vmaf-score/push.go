package main

import (
	"fmt"
	"net/url"
	"os"

	"github.com/prometheus/client_golang/prometheus/push"

	"github.com/vmafsink/vmafsink/metrics"
)

// With --metrics-push URL a run's final metrics (the same families
// --metrics-addr serves, element="vmaf-score") go to a Prometheus
// Pushgateway when the run ends, under job "vmaf-score" and the host's
// name as instance: a batch run ends before any scrape would find it.

// metricsPush is the exporter whose values are pushed at the end.
type metricsPush struct {
	url string
	ex  *metrics.Exporter
}

func checkPushURL(v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return invalid(v, "--metrics-push", "the Pushgateway's http:// or https:// URL, e.g. http://127.0.0.1:9091")
	}
	return nil
}

// startPush gathers the Runner's metrics from the start, for the push at
// the end.
func (rs *runnerSink) startPush(u string) error {
	if u == "" {
		return nil
	}
	ex, err := metrics.New(metrics.Config{Element: metricsElement, Runner: rs.r})
	if err != nil {
		return fmt.Errorf("--metrics-push: %w", err)
	}
	rs.push = &metricsPush{url: u, ex: ex}
	return nil
}

// pushMetrics sends the final values, once every frame is scored.
func (rs *runnerSink) pushMetrics() error {
	if rs.push == nil {
		return nil
	}
	p := rs.push
	rs.push = nil
	defer p.ex.Close()
	host, _ := os.Hostname()
	if err := push.New(p.url, metricsElement).Gatherer(p.ex.Gatherer()).Grouping("instance", host).Push(); err != nil {
		return fmt.Errorf("--metrics-push %s: %w (the scores are written all the same)", p.url, err)
	}
	return nil
}
