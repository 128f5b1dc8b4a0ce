package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/internal/plot"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

// plotData gathers what --plot draws: each model's score under the key
// its outputs are pooled under (so a swapped-in model namesake gets a
// line of its own), where the models changed, and where an agent paused
// the run. Scores arrive on the engine's goroutine, pauses on the
// Runner's pusher.
type plotData struct {
	mu       sync.Mutex
	series   []plot.Series
	byKey    map[string]int
	swaps    []plot.Swap
	pauses   []plot.Pause
	pausedAt int // the first pair after the pause in effect, -1 when running

	threshold float64     // the alert threshold; 0 without alerts
	drops     []plot.Drop // the quality drops that ended
	windows   []plot.Window
}

// window records a window of the run's analytics.
func (p *plotData) window(w analytics.Window) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.windows = append(p.windows, plot.Window{First: w.First, Last: w.Last, Mean: w.Mean})
}

func newPlotData() *plotData { return &plotData{byKey: map[string]int{}, pausedAt: -1} }

// add records one frame's model scores; metrics are named by keys (see
// report.ModelKeys), and sw is the change of models at this frame, if
// swapped.
func (p *plotData) add(index int, models []*vmaf.Model, keys *report.ModelKeys, metrics []vmaf.Metric, sw report.Swap, swapped bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if swapped {
		p.swaps = append(p.swaps, plot.Swap{Frame: sw.Frame, To: sw.To})
	}
	for _, m := range models {
		key, ok := keys.Key(m)
		if !ok {
			continue
		}
		for _, mt := range metrics {
			if mt.Name != key {
				continue
			}
			i, ok := p.byKey[key]
			if !ok {
				i = len(p.series)
				p.byKey[key] = i
				p.series = append(p.series, plot.Series{Name: key})
			}
			s := &p.series[i]
			s.Frames = append(s.Frames, index)
			s.Scores = append(s.Scores, mt.Value)
			break
		}
	}
}

// alert records a quality drop once it has ended (at the end of the
// stream at the latest).
func (p *plotData) alert(a analytics.Alert) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.threshold = a.Threshold
	if a.State == analytics.AlertEnd {
		p.drops = append(p.drops, plot.Drop{First: a.First, Last: a.Last})
	}
}

// applied follows the Runner's pauses and resumes (pipeline.Config's
// OnApplied); next is the first pair after the command.
func (p *plotData) applied(kind pipeline.CommandKind, next int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case kind == pipeline.Pause && p.pausedAt < 0:
		p.pausedAt = next
	case kind == pipeline.Resume && p.pausedAt >= 0:
		p.pauses = append(p.pauses, plot.Pause{From: p.pausedAt, To: next})
		p.pausedAt = -1
	}
}

// onApplied is the Runner's OnApplied: with --plot, the plot follows the
// pauses.
func (j *job) onApplied() func(pipeline.CommandKind, int) {
	if j.plot == nil {
		return nil
	}
	return j.plot.applied
}

// data is what to draw; a pause still in effect runs to the end.
func (p *plotData) data(title string) plot.Data {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := plot.Data{Title: title, Series: p.series, Swaps: p.swaps, Pauses: p.pauses, Threshold: p.threshold, Drops: p.drops, Windows: p.windows}
	if p.pausedAt >= 0 {
		d.Pauses = append(d.Pauses, plot.Pause{From: p.pausedAt, To: -1})
	}
	return d
}

// writePlot draws the scores gathered to the --plot file. The picture is
// made in memory first, so a plot that cannot be drawn leaves no file.
func (j *job) writePlot() error {
	f, err := plot.FormatOf(j.s.plot)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := plot.Render(&buf, f, j.plot.data(plotTitle(j.s, j.models))); err != nil {
		return err
	}
	if err := os.WriteFile(j.s.plot, buf.Bytes(), 0o666); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// plotTitle names the inputs and the models that score them.
func plotTitle(s *settings, models []*vmaf.Model) string {
	names := make([]string, 0, len(models))
	for _, m := range models {
		names = append(names, m.Version)
	}
	t := fmt.Sprintf("%s vs %s", filepath.Base(s.dist), filepath.Base(s.ref))
	if len(names) > 0 {
		t += " — " + strings.Join(names, ", ")
	}
	return t
}
