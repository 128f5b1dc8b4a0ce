package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/internal/plot"
)

func cmdPlot(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
	fs := flags("plot", &g, stderr)
	out := fs.String("o", "", "the picture to write: FILE.svg or FILE.png")
	n := fs.Int("n", 0, "plot the last N scored frames (0: every frame whose score the control plane keeps, the whole run)")
	worst := fs.Int("worst", plot.DefaultWorst, "label the N worst frames plotted (0: none)")
	pos, err := parse(fs, args)
	if err != nil {
		return report(stderr, err)
	}
	if *out == "" {
		return report(stderr, fail(exitUsage, "plot: -o FILE.svg or -o FILE.png is required"))
	}
	if len(pos) > 1 {
		return report(stderr, fail(exitUsage, "plot: one results file at a time"))
	}
	format, err := plot.FormatOf(*out)
	if err != nil {
		return report(stderr, fail(exitUsage, "plot: -o %q: the file name must end in .svg or .png", *out))
	}
	if *n < 0 {
		return report(stderr, fail(exitUsage, "plot: -n %d: want 0 (every frame kept) or more", *n))
	}
	if *worst < 0 {
		return report(stderr, fail(exitUsage, "plot: -worst %d: want 0 or more", *worst))
	}
	if len(pos) == 1 {
		d, err := resultsData(pos[0])
		if err != nil {
			return report(stderr, err)
		}
		d.Worst = *worst
		if *worst == 0 {
			d.Worst = -1
		}
		return writePlot(d, format, *out, stdout, stderr)
	}
	var (
		recs   []control.Record
		st     control.Status
		alerts control.Alerts
	)
	err = withSession(ctx, g, func(ctx context.Context, s *session) error {
		var head control.Scores
		if err := s.call(ctx, "vmaf_score", map[string]any{"last": 1}, &head); err != nil {
			return err
		}
		h := head.History
		if h == nil {
			return fail(exitError, "plot: the server keeps no score history (vmaf_score has no from/to)")
		}
		if h.Frames == 0 || h.KeptFrom < 0 {
			return fail(exitError, "plot: no frame scored yet")
		}
		var err error
		if recs, err = history(ctx, s, h.KeptFrom, h.KeptTo, *n); err != nil {
			return err
		}
		if err := s.call(ctx, "vmaf_status", nil, &st); err != nil {
			return err
		}
		return readJSON(ctx, s, alertsURI, &alerts)
	})
	if err != nil {
		return report(stderr, err)
	}
	if len(recs) == 0 {
		return report(stderr, fail(exitError, "plot: no frame scored yet"))
	}
	d, older := liveData(recs, st, alerts)
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
	first, end := recs[0].Frame, recs[len(recs)-1].Frame
	if g.json {
		printJSON(stdout, map[string]any{"file": *out, "frames": len(recs), "first_frame": first, "last_frame": end,
			"threshold": d.Threshold, "drops": len(d.Drops)})
	} else {
		fmt.Fprintf(stdout, "%s: frames %d to %d (%d records, %d drops)\n", *out, first, end, len(recs), len(d.Drops))
	}
	if older >= 0 {
		fmt.Fprintf(stderr, "vmafctl: plot: drops before frame %d are not shaded: %s lists the latest %d\n", older, alertsURI, len(alerts.Alerts))
	}
	return exitOK
}

// history reads the scores of frames from..to, or of the last n scored
// frames among them when n > 0, oldest first, a vmaf_score from/to call
// per page of the server's max_range frames.
func history(ctx context.Context, s *session, from, to int64, n int) ([]control.Record, error) {
	if n == 0 {
		return scoreRange(ctx, s, from, to)
	}
	// The last n scored frames: ranges back from the newest, twice as
	// long each time one holds no scored frame (a long pause skipped
	// them), until n are found or the history is read.
	var out []control.Record
	span := int64(n)
	for hi := to; len(out) < n && hi >= from; {
		lo := max(hi-span+1, from)
		page, err := scoreRange(ctx, s, lo, hi)
		if err != nil {
			return nil, err
		}
		if len(page) == 0 {
			span *= 2
		} else {
			span = int64(n - len(out) - len(page))
		}
		out = append(page, out...)
		hi = lo - 1
	}
	return out[max(len(out)-n, 0):], nil
}

// scoreRange reads frames from..to, following next_from.
func scoreRange(ctx context.Context, s *session, from, to int64) ([]control.Record, error) {
	var out []control.Record
	for {
		var sc control.Scores
		if err := s.call(ctx, "vmaf_score", map[string]any{"from": from, "to": to}, &sc); err != nil {
			return nil, err
		}
		out = append(out, sc.Records...)
		if sc.History == nil || sc.History.NextFrom == nil || *sc.History.NextFrom > to {
			return out, nil
		}
		from = *sc.History.NextFrom
	}
}

// readJSON reads a JSON resource into out.
func readJSON(ctx context.Context, s *session, uri string, out any) error {
	res, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		if ctx.Err() != nil {
			return fail(exitTimeout, "%s: timed out waiting for the server", uri)
		}
		return fail(exitError, "%s: %v", uri, err)
	}
	if len(res.Contents) == 0 {
		return fail(exitError, "%s: empty reply", uri)
	}
	if err := json.Unmarshal([]byte(res.Contents[0].Text), out); err != nil {
		return fail(exitError, "%s: unexpected reply %q: %v", uri, res.Contents[0].Text, err)
	}
	return nil
}

// liveData turns the scores the control plane keeps into a plot: a line
// per model that scored them (the first model's score is the record's;
// the other models configured, which the status lists, have theirs among
// a full record's features under their names); a swap where the model
// changes (or where the status's swap history puts one); frames missing
// between two records, skipped while paused or dropped, shaded; a run
// paused now marked at its end; the alert threshold, and the drops below
// it shaded. older is the frame before which drops may be missing because
// the alerts resource lists only the latest ones, or -1.
func liveData(recs []control.Record, st control.Status, al control.Alerts) (d plot.Data, older int64) {
	first, last := recs[0].Frame, recs[len(recs)-1].Frame
	d = plot.Data{Title: liveTitle(st, first, last)}
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
	for _, sw := range st.Swaps {
		f := int(sw.FirstFrame)
		if !sw.Superseded && sw.FirstFrame > first && sw.FirstFrame <= last && !swapAt[f] {
			d.Swaps = append(d.Swaps, plot.Swap{Frame: f, To: sw.To})
		}
	}
	if st.State == control.StatePaused {
		d.Pauses = append(d.Pauses, plot.Pause{From: int(last) + 1, To: -1})
	}
	d.Threshold = al.Threshold
	older = -1
	if al.Threshold > 0 {
		d.Drops = drops(al, first, last)
		if len(al.Alerts) >= maxAlertsListed && al.Alerts[0].FirstFrame > first {
			older = al.Alerts[0].FirstFrame
		}
	}
	return d, older
}

// maxAlertsListed is how many drops vmaf://alerts lists at most.
const maxAlertsListed = 100

// drops returns the drops the alerts resource lists (the open one
// included, to its latest low frame) that overlap frames first..last,
// cut to them.
func drops(al control.Alerts, first, last int64) []plot.Drop {
	var out []plot.Drop
	seen := map[uint64]bool{}
	list := al.Alerts
	if al.Active != nil {
		list = append(list[:len(list):len(list)], *al.Active)
	}
	for _, a := range list {
		if seen[a.ID] || a.LastFrame < first || a.FirstFrame > last {
			continue
		}
		seen[a.ID] = true
		out = append(out, plot.Drop{First: int(max(a.FirstFrame, first)), Last: int(min(a.LastFrame, last))})
	}
	return out
}

// liveTitle names what was measured: the models, the picture, the frames
// drawn and the socket that served them (a live run's inputs are the
// pipeline's, which the control plane does not know).
func liveTitle(st control.Status, first, last int64) string {
	models := st.Model
	if len(st.Models) > 0 {
		models = strings.Join(st.Models, ", ")
	}
	if len(st.Swaps) > 0 {
		models = st.Swaps[0].From
		for _, sw := range st.Swaps {
			models += " → " + sw.To
		}
	}
	return fmt.Sprintf("%s on %dx%d %s (frames %d to %d) · %s", models, st.Width, st.Height, st.Format, first, last, filepath.Base(st.Socket))
}
