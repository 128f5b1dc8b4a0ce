package main

import (
	"fmt"
	"os"
	"time"

	"github.com/vmafsink/vmafsink/report"
)

// prepare sets up what a run writes, from the settings and the pictures'
// format: the plot, the metrics --no_prediction hides, and the output
// document. now, when set, is the output's clock (a merge gives the
// parts' own scoring time). The returned function closes what prepare
// opened, once the job is done with it.
func (j *job) prepare(f picFormat, now func() time.Time) (func(), error) {
	s := j.s
	none := func() {}
	if s.plot != "" {
		j.plot = newPlotData()
		j.results.plot = j.plot
	}
	switch {
	case s.noPrediction && len(s.models) == 0 && len(s.features) > 0 && !s.useRunner():
		// libvmaf's tool then loads no model at all and extracts only
		// the --feature metrics; so does the engine.
		j.models = nil
	case s.noPrediction && len(s.models) == 0:
		// A measurement an agent steers needs a model to swap; its
		// outputs and features are left out.
		hide, err := notExtraFeature(s.features)
		if err != nil {
			return none, err
		}
		j.results.hide = hide
	case s.noPrediction:
		j.results.hide = modelOutputs(j.models)
	}
	if s.output == "" {
		return none, nil
	}
	opts := s.reportOptions(report.Options{Format: s.format, Width: f.Width, Height: f.Height, Now: now})
	var err error
	switch {
	case s.output == "-":
		j.out = report.NewWriter(j.stdout, opts)
	case isStream(s.output):
		// A pipe or terminal (/dev/stdout, a FIFO) cannot be rewritten
		// in place: the document goes out whole at the end, as libvmaf
		// writes it.
		if j.outFile, err = os.OpenFile(s.output, os.O_WRONLY, 0); err != nil {
			return none, fmt.Errorf("output: %w", err)
		}
		j.out = report.NewWriter(j.outFile, opts)
		j.results.out = j.out
		return func() { j.outFile.Close() }, nil
	default:
		if j.out, err = report.Create(s.output, opts); err != nil {
			return none, err
		}
	}
	j.results.out = j.out
	return none, nil
}
