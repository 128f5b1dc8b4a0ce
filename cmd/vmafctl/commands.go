package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/vmafsink/vmafsink/control"
)

func cmdStatus(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
	fs := flags("status", &g, stderr)
	if _, err := parse(fs, args); err != nil {
		return report(stderr, err)
	}
	var st control.Status
	err := withSession(ctx, g, func(ctx context.Context, s *session) error {
		return s.call(ctx, "vmaf_status", nil, &st)
	})
	if err != nil {
		return report(stderr, err)
	}
	if g.json {
		printJSON(stdout, st)
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "state\t%s (pause mode %s)\n", st.State, st.PauseMode)
	engine := st.Engine
	if st.EngineUsed != "" && st.EngineUsed != st.Engine {
		engine += ": " + st.EngineUsed // auto, and what it chose
	}
	fmt.Fprintf(tw, "model\t%s (engine %s)\n", st.Model, engine)
	if st.Width > 0 {
		fmt.Fprintf(tw, "stream\t%dx%d %s\n", st.Width, st.Height, st.Format)
	}
	fmt.Fprintf(tw, "frames\treceived %d  scored %d  skipped %d  unpaired %d\n", st.FramesReceived, st.FramesScored, st.FramesSkipped, st.FramesUnpaired)
	if st.LastScore != nil {
		fmt.Fprintf(tw, "last score\t%.3f (frame %d)\n", *st.LastScore, st.LastFrame)
	}
	if sw := st.Sweep; sw != nil {
		fmt.Fprintf(tw, "sweep\t%s, %d probes done\n", sw.Command, sw.ProbesDone)
		if p := sw.Probe; p != nil {
			fmt.Fprintf(tw, "probe\t#%d %s crf %g at %s: %d/%d frames (from frame %d)\n", p.Number, p.Encoder, p.CRF, p.Resolution, p.FramesScored, p.Frames, p.FirstFrame)
		}
	}
	fmt.Fprintf(tw, "commands\t%d pending\n", st.CommandsPending)
	for _, sw := range st.Swaps {
		fmt.Fprintf(tw, "swap\t#%d at frame %d: %s -> %s (%s)\n", sw.Command, sw.FirstFrame, sw.From, sw.To, sw.Time.Local().Format(time.TimeOnly))
	}
	fmt.Fprintf(tw, "uptime\t%s\n", time.Duration(st.UptimeSeconds*float64(time.Second)).Round(100*time.Millisecond))
	fmt.Fprintf(tw, "socket\t%s\n", st.Socket)
	for _, w := range st.Warnings {
		fmt.Fprintf(tw, "warning\t%s\n", w)
	}
	tw.Flush()
	return exitOK
}

func cmdFeatures(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
	fs := flags("features", &g, stderr)
	if _, err := parse(fs, args); err != nil {
		return report(stderr, err)
	}
	var f control.Features
	if err := withSession(ctx, g, func(ctx context.Context, s *session) error {
		return s.call(ctx, "vmaf_features", nil, &f)
	}); err != nil {
		return report(stderr, err)
	}
	if g.json {
		printJSON(stdout, f)
		return exitOK
	}
	for _, e := range f.Extractors {
		opts := ""
		for _, k := range slices.Sorted(maps.Keys(e.Options)) {
			opts += fmt.Sprintf(" %s=%g", k, e.Options[k])
		}
		line := fmt.Sprintf("%s%s: %s", e.Name, opts, strings.Join(e.Outputs, " "))
		if len(e.Outputs) == 0 {
			line += "(outputs known once a frame is scored)"
		}
		if e.Request != "" {
			line += "  [requested: " + e.Request + "]"
		}
		fmt.Fprintln(stdout, line)
	}
	if len(f.Extra) > 0 {
		fmt.Fprintf(stdout, "extra: %s\n", strings.Join(f.Extra, " "))
	}
	return exitOK
}

func cmdExtractors(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
	fs := flags("extractors", &g, stderr)
	if _, err := parse(fs, args); err != nil {
		return report(stderr, err)
	}
	var l control.ExtractorList
	if err := withSession(ctx, g, func(ctx context.Context, s *session) error {
		return s.call(ctx, "vmaf_list_extractors", nil, &l)
	}); err != nil {
		return report(stderr, err)
	}
	if g.json {
		printJSON(stdout, l)
		return exitOK
	}
	for _, e := range l.Extractors {
		fmt.Fprintf(stdout, "%s: %s\n", e.Name, strings.Join(e.Outputs, " "))
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		for _, o := range e.Options {
			var notes []string
			if o.Min != nil && o.Max != nil {
				notes = append(notes, fmt.Sprintf("%g..%g", *o.Min, *o.Max))
			}
			if o.Renames {
				notes = append(notes, "renames outputs")
			}
			if o.DefaultOnly {
				notes = append(notes, "default only")
			}
			line := fmt.Sprintf("  %s\t%s\t= %s", o.Name, o.Type, o.Default)
			if len(notes) > 0 {
				line += "\t" + strings.Join(notes, ", ")
			}
			fmt.Fprintln(tw, line)
		}
		tw.Flush()
	}
	return exitOK
}

func cmdScore(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
	fs := flags("score", &g, stderr)
	n := fs.Int("n", 1, "how many of the latest records")
	worst := fs.Int("worst", 0, "also the N worst frames so far")
	if _, err := parse(fs, args); err != nil {
		return report(stderr, err)
	}
	var sc control.Scores
	if err := withSession(ctx, g, func(ctx context.Context, s *session) error {
		return s.call(ctx, "vmaf_score", map[string]any{"last": *n, "worst": *worst}, &sc)
	}); err != nil {
		return report(stderr, err)
	}
	if g.json {
		printJSON(stdout, sc)
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "frame\tpts\tmodel\tscore\t")
	for _, r := range sc.Records {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.3f\t\n", r.Frame, pts(r.PTS), r.Model, r.Score)
	}
	if len(sc.Worst) > 0 {
		fmt.Fprintln(tw, "worst\t\t\t\t")
		for _, r := range sc.Worst {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%.3f\t\n", r.Frame, pts(r.PTS), r.Model, r.Score)
		}
	}
	tw.Flush()
	tw = tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "metric\tframes\tmin\tmax\tmean\tharmonic\t")
	for _, p := range sc.Pooled {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t\n", p.Name, p.Count, p.Min, p.Max, p.Mean, p.HarmonicMean)
	}
	tw.Flush()
	return exitOK
}

func pts(ns int64) string {
	if ns < 0 {
		return "-"
	}
	return time.Duration(ns).Round(time.Millisecond).String()
}

func cmdSwap(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
	fs := flags("swap", &g, stderr)
	name := fs.String("name", "", "metric name for the new model's score")
	wait := fs.Bool("wait", false, "wait until the swap is applied")
	pos, err := parse(fs, args)
	if err != nil {
		return report(stderr, err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: vmafctl swap MODEL [-name NAME] [-wait]")
		return exitUsage
	}
	a := map[string]any{"model": pos[0]}
	if *name != "" {
		a["name"] = *name
	}
	return runCommand(ctx, g, "vmaf_request_model_swap", a, *wait, stdout, stderr)
}

func cmdCommand(tool string) command {
	return func(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
		fs := flags(strings.TrimPrefix(tool, "vmaf_"), &g, stderr)
		wait := fs.Bool("wait", false, "wait until applied at a frame boundary")
		if _, err := parse(fs, args); err != nil {
			return report(stderr, err)
		}
		return runCommand(ctx, g, tool, map[string]any{}, *wait, stdout, stderr)
	}
}

func runCommand(ctx context.Context, g globals, tool string, args map[string]any, wait bool, stdout, stderr io.Writer) int {
	sg := g
	if wait {
		// The server gives up waiting after g.timeout and says so; the
		// connection gets a little longer to carry that answer.
		args["wait"] = true
		args["timeout_ms"] = g.timeout.Milliseconds()
		sg.timeout += 5 * time.Second
	}
	var c control.Command
	if err := withSession(ctx, sg, func(ctx context.Context, s *session) error {
		return s.call(ctx, tool, args, &c)
	}); err != nil {
		return report(stderr, err)
	}
	if g.json {
		printJSON(stdout, c)
		return exitOK
	}
	what := c.Kind
	if c.Model != "" {
		what += " to " + c.Model
	}
	switch {
	case c.Status == control.CommandApplied && c.Frame < 0:
		// A swap that took effect while paused, or as the stream ended.
		fmt.Fprintf(stdout, "%s (command %d) applied; no frame scored by it yet (paused, or the stream ended)\n", what, c.ID)
	case c.Status == control.CommandApplied:
		fmt.Fprintf(stdout, "%s (command %d) applied at frame %d\n", what, c.ID, c.Frame)
	default:
		fmt.Fprintf(stdout, "%s (command %d) %s\n", what, c.ID, c.Status)
	}
	if c.MismatchedModelWarning != "" {
		fmt.Fprintf(stdout, "warning: %s\n", c.MismatchedModelWarning)
	}
	return exitOK
}

func cmdModels(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
	fs := flags("models", &g, stderr)
	if _, err := parse(fs, args); err != nil {
		return report(stderr, err)
	}
	var l control.ModelList
	if err := withSession(ctx, g, func(ctx context.Context, s *session) error {
		return s.call(ctx, "vmaf_list_models", nil, &l)
	}); err != nil {
		return report(stderr, err)
	}
	if g.json {
		printJSON(stdout, l)
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, m := range l.Models {
		detail := strings.Join(m.Features, " ")
		if m.Error != "" {
			detail = "unusable: " + m.Error
		}
		src := m.Source
		if m.Path != "" {
			src = m.Path
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", m.Name, src, detail)
	}
	tw.Flush()
	if len(l.Dirs) > 0 {
		fmt.Fprintf(stdout, "model directories: %s\n", strings.Join(l.Dirs, ", "))
	}
	return exitOK
}
