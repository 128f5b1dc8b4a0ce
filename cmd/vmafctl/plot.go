package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/internal/plot"
)

// maxPlotFrames is the most records vmaf_score returns; the control
// plane keeps fewer (the last 256 frames, pipeline.DefaultRecent), and a
// plot shows what it holds.
const maxPlotFrames = 1000

func cmdPlot(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
	fs := flags("plot", &g, stderr)
	out := fs.String("o", "", "the picture to write: FILE.svg or FILE.png")
	n := fs.Int("n", 0, fmt.Sprintf("plot the last N frames (0: every frame the control plane holds, its last 256; at most %d)", maxPlotFrames))
	worst := fs.Int("worst", plot.DefaultWorst, "label the N worst frames plotted (0: none)")
	if _, err := parse(fs, args); err != nil {
		return report(stderr, err)
	}
	if *out == "" {
		return report(stderr, fail(exitUsage, "plot: -o FILE.svg or -o FILE.png is required"))
	}
	format, err := plot.FormatOf(*out)
	if err != nil {
		return report(stderr, fail(exitUsage, "plot: -o %q: the file name must end in .svg or .png", *out))
	}
	if *n < 0 || *n > maxPlotFrames {
		return report(stderr, fail(exitUsage, "plot: -n %d: want 0 to %d", *n, maxPlotFrames))
	}
	if *worst < 0 {
		return report(stderr, fail(exitUsage, "plot: -worst %d: want 0 or more", *worst))
	}
	last := *n
	if last == 0 {
		last = maxPlotFrames
	}
	var sc control.Scores
	var st control.Status
	err = withSession(ctx, g, func(ctx context.Context, s *session) error {
		if err := s.call(ctx, "vmaf_score", map[string]any{"last": last}, &sc); err != nil {
			return err
		}
		return s.call(ctx, "vmaf_status", nil, &st)
	})
	if err != nil {
		return report(stderr, err)
	}
	if len(sc.Records) == 0 {
		return report(stderr, fail(exitError, "plot: no frame scored yet"))
	}
	d := liveData(sc.Records, st)
	d.Worst = *worst
	if *worst == 0 {
		d.Worst = -1
	}
	var buf bytes.Buffer
	if err := plot.Render(&buf, format, d); err != nil {
		return report(stderr, fail(exitError, "%v", err))
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o666); err != nil {
		return report(stderr, fail(exitError, "plot: %v", err))
	}
	first, end := sc.Records[0].Frame, sc.Records[len(sc.Records)-1].Frame
	if g.json {
		printJSON(stdout, map[string]any{"file": *out, "frames": len(sc.Records), "first_frame": first, "last_frame": end})
		return exitOK
	}
	fmt.Fprintf(stdout, "%s: frames %d to %d (%d records)\n", *out, first, end, len(sc.Records))
	if sc.Capped != nil && *n > 0 {
		fmt.Fprintf(stderr, "vmafctl: plot: %s\n", sc.Capped.Reason)
	}
	return exitOK
}

// liveData turns the records the control plane keeps into a plot: a line
// per model that scored them (the first model's score is the record's;
// the other models configured, which the status lists, have theirs among
// its features under their names); a swap where the model changes (or where
// the status's swap history puts one); frames missing between two
// records, skipped while paused or dropped, shaded; and a run paused now
// marked at its end.
func liveData(recs []control.Record, st control.Status) plot.Data {
	d := plot.Data{Title: fmt.Sprintf("%s (last %d frames kept)", st.Socket, len(recs))}
	byModel := map[string]int{}
	add := func(model string, frame int64, score float64) {
		k, ok := byModel[model]
		if !ok {
			k = len(d.Series)
			byModel[model] = k
			d.Series = append(d.Series, plot.Series{Name: model})
		}
		s := &d.Series[k]
		s.Frames = append(s.Frames, int(frame))
		s.Scores = append(s.Scores, score)
	}
	var others []string
	if len(st.Models) > 1 {
		others = st.Models[1:]
	}
	swapAt := map[int]bool{}
	for i, r := range recs {
		add(r.Model, r.Frame, r.Score)
		for _, m := range others {
			if v, ok := r.Features[m]; ok && m != r.Model {
				add(m, r.Frame, v)
			}
		}
		if i == 0 {
			continue
		}
		prev := recs[i-1]
		if r.Model != prev.Model {
			d.Swaps = append(d.Swaps, plot.Swap{Frame: int(r.Frame), To: r.Model})
			swapAt[int(r.Frame)] = true
		}
		if r.Frame > prev.Frame+1 {
			d.Pauses = append(d.Pauses, plot.Pause{From: int(prev.Frame) + 1, To: int(r.Frame), Label: "not scored"})
		}
	}
	first, last := recs[0].Frame, recs[len(recs)-1].Frame
	for _, sw := range st.Swaps {
		f := int(sw.FirstFrame)
		if !sw.Superseded && sw.FirstFrame > first && sw.FirstFrame <= last && !swapAt[f] {
			d.Swaps = append(d.Swaps, plot.Swap{Frame: f, To: sw.To})
		}
	}
	if st.State == control.StatePaused {
		d.Pauses = append(d.Pauses, plot.Pause{From: int(last) + 1, To: -1})
	}
	return d
}
