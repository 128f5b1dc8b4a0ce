package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/vmafsink/vmafsink/analytics"
)

// analyticsCollector reads the Runner's analytics.Monitor at scrape time.
// What the monitor is not configured for is not exported at all, so that
// a dashboard shows "no data" rather than a 0 that looks like a verdict:
// vmaf_window_score only with windows on and once a window closed, the
// alert metrics only with an alert threshold.
type analyticsCollector struct{ m *analytics.Monitor }

var (
	descWindow = prometheus.NewDesc("vmaf_window_score",
		"Mean VMAF score of the last closed window (window-frames or window-duration), under the model of its last frame.", []string{"model"}, nil)
	descAlertActive = prometheus.NewDesc("vmaf_alert_active",
		"1 while a quality drop is open (alert-frames or more consecutive frames below alert-threshold), else 0.", nil, nil)
	descAlerts = prometheus.NewDesc("vmaf_alerts_total",
		"Quality drops begun, including the open one.", nil, nil)
	descThreshold = prometheus.NewDesc("vmaf_alert_threshold",
		"The alert threshold (VMAF score) the drops are measured against.", nil, nil)
)

func (c analyticsCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descWindow, descAlertActive, descAlerts, descThreshold} {
		ch <- d
	}
}

func (c analyticsCollector) Collect(ch chan<- prometheus.Metric) {
	if w, ok := c.m.LastWindow(); ok {
		ch <- prometheus.MustNewConstMetric(descWindow, prometheus.GaugeValue, w.Mean, w.Model)
	}
	threshold := c.m.Config().AlertThreshold
	if threshold <= 0 {
		return
	}
	_, active := c.m.ActiveAlert()
	var begun uint64
	if last := c.m.Alerts(1); len(last) == 1 {
		begun = last[0].ID
	}
	ch <- prometheus.MustNewConstMetric(descAlertActive, prometheus.GaugeValue, boolValue(active))
	ch <- prometheus.MustNewConstMetric(descAlerts, prometheus.CounterValue, float64(begun))
	ch <- prometheus.MustNewConstMetric(descThreshold, prometheus.GaugeValue, threshold)
}
