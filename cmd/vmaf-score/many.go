package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
)

// Several distorted inputs (-d repeated, or a glob) are scored against
// one reading of the reference: each gets its own engine and results
// file (-o with {name} or {n}), all run at once, and a summary table of
// every model's pooled mean goes to stdout (and with --summary, as
// JSON to a file).

// addDistorted takes one -d: a path, or a glob that names no file itself
// and matches some.
func (s *settings) addDistorted(v string) error {
	paths := []string{v}
	if strings.ContainsAny(v, "*?[") {
		if _, err := os.Stat(v); err != nil {
			matches, gerr := filepath.Glob(v)
			if gerr != nil || len(matches) == 0 {
				return usagef("-d %q: no file matches", v)
			}
			paths = matches
		}
	}
	for _, p := range paths {
		for _, d := range s.dists {
			if d == p {
				return usagef("-d %q given twice", p)
			}
		}
		s.dists = append(s.dists, p)
	}
	s.dist = s.dists[0]
	return nil
}

// checkMany refuses what one run over several distorted inputs cannot
// do, and an -o that would name one file for all of them.
func (s *settings) checkMany() error {
	if len(s.dists) < 2 {
		if s.summary != "" {
			return usagef("--summary needs several distorted inputs (-d given more than once)")
		}
		return nil
	}
	for _, d := range s.dists {
		if d == "-" {
			return usagef("standard input cannot be one of several distorted inputs")
		}
	}
	if s.output != "" && s.output != "-" && !strings.Contains(s.output, "{name}") && !strings.Contains(s.output, "{n}") {
		return usagef("-o %q would name one file for %d distorted inputs: put {name} (the input's name without extension) or {n} (its position) in it, e.g. -o '{name}.json'", s.output, len(s.dists))
	}
	if s.output == "-" {
		return usagef("-o - writes one document; with several distorted inputs give a pattern with {name}")
	}
	for _, o := range []struct {
		set  bool
		name string
	}{
		{s.mcpSocket != "" || s.mcpHTTP != "", "--mcp-uds/--mcp-http"},
		{s.metricsAddr != "", "--metrics-addr"},
		{s.plot != "", "--plot"},
		{s.worstDir != "", "--worst-dir"},
	} {
		if o.set {
			return usagef("%s serves or draws one run; score one distorted input at a time with it", o.name)
		}
	}
	if outs := s.outputsFor(); len(outs) > 0 {
		seen := map[string]string{}
		for i, o := range outs {
			if prev, ok := seen[o]; ok {
				return usagef("-o %q names %s for both %q and %q: use {n} to tell them apart", s.output, o, prev, s.dists[i])
			}
			seen[o] = s.dists[i]
		}
	}
	return nil
}

// outputsFor expands the -o pattern for each distorted input.
func (s *settings) outputsFor() []string {
	if s.output == "" {
		return nil
	}
	out := make([]string, len(s.dists))
	for i, d := range s.dists {
		name := strings.TrimSuffix(filepath.Base(d), filepath.Ext(d))
		out[i] = strings.NewReplacer("{name}", name, "{n}", strconv.Itoa(i+1)).Replace(s.output)
	}
	return out
}

// manyResult is one distorted input's outcome.
type manyResult struct {
	Distorted string                `json:"distorted"`
	Output    string                `json:"output,omitempty"`
	Frames    int64                 `json:"frames"`
	Pooled    map[string]pooledJSON `json:"pooled_metrics,omitempty"`
	Warnings  []string              `json:"warnings,omitempty"`
	Error     string                `json:"error,omitempty"`
	models    []string              // model keys in order, for the table
}

func scoreMany(ctx context.Context, s *settings, stdout, stderr io.Writer) error {
	outs := s.outputsFor()
	n := len(s.dists)
	// Each branch of the reference may hold what one input would, and
	// one may run ahead of another by as much again.
	buffers := s.inputBuffers()
	ref, err := s.openInput(s.ref, false, buffers*(n+1))
	if err != nil {
		return fmt.Errorf("reference %w", err)
	}
	defer ref.close()
	tee := newTee(ref, n)

	results := make([]manyResult, n)
	logs := make([]bytes.Buffer, n)
	var wg sync.WaitGroup
	for i, d := range s.dists {
		one := *s
		one.dist, one.dists, one.showProgress = d, nil, false
		if outs != nil {
			one.output = outs[i]
		}
		results[i] = manyResult{Distorted: d, Output: one.output}
		wg.Add(1)
		go func() {
			defer wg.Done()
			branch := tee.branch(i)
			defer branch.close()
			models, err := one.loadModels()
			var j *job
			if err == nil {
				j, err = scoreAgainst(ctx, &one, models, branch, buffers, io.Discard, &logs[i])
			}
			results[i].fill(j, err)
		}()
	}
	wg.Wait()

	failed := 0
	for i := range results {
		for _, line := range strings.SplitAfter(logs[i].String(), "\n") {
			if line != "" {
				fmt.Fprintf(stderr, "%s: %s", s.dists[i], strings.TrimPrefix(line, "vmaf-score: "))
			}
		}
		if results[i].Error != "" {
			fmt.Fprintf(stderr, "%s: %s\n", s.dists[i], results[i].Error)
			failed++
		}
	}
	writeSummary(stdout, results)
	if s.summary != "" {
		if err := writeSummaryJSON(s.summary, s.ref, results); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return errInterrupted
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d distorted inputs failed (see above)", failed, n)
	}
	return nil
}

// pooledJSON is a model's pooled score as libvmaf's JSON writes it.
type pooledJSON struct {
	Min          float64 `json:"min"`
	Max          float64 `json:"max"`
	Mean         float64 `json:"mean"`
	HarmonicMean float64 `json:"harmonic_mean"`
}

func (r *manyResult) fill(j *job, err error) {
	if err != nil {
		r.Error = err.Error()
	}
	if j == nil {
		return
	}
	r.Frames = j.results.scored.Load()
	r.Warnings = j.warnings
	r.Pooled = map[string]pooledJSON{}
	for _, m := range j.results.keys.Seen() {
		k, _ := j.results.keys.Key(m)
		if p, ok := j.results.pool.Get(k); ok {
			r.Pooled[k] = pooledJSON{p.Min, p.Max, p.Mean, p.HarmonicMean}
			r.models = append(r.models, k)
		}
	}
}

// writeSummary prints one row per distorted input: its frames and each
// model's pooled mean, or why it failed.
func writeSummary(w io.Writer, results []manyResult) {
	var models []string
	seen := map[string]bool{}
	for _, r := range results {
		for _, m := range r.models {
			if !seen[m] {
				seen[m] = true
				models = append(models, m)
			}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "distorted\tframes\t")
	for _, m := range models {
		fmt.Fprintf(tw, "%s\t", m)
	}
	fmt.Fprintln(tw)
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%d\t", r.Distorted, r.Frames)
		for _, m := range models {
			if p, ok := r.Pooled[m]; ok {
				fmt.Fprintf(tw, "%f\t", p.Mean)
			} else {
				fmt.Fprint(tw, "-\t")
			}
		}
		if r.Error != "" {
			fmt.Fprintf(tw, "failed: %s\t", r.Error)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

func writeSummaryJSON(path, ref string, results []manyResult) error {
	doc := struct {
		Reference string       `json:"reference"`
		Runs      []manyResult `json:"runs"`
	}{ref, results}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("--summary: %w", errors.Unwrap(err))
	}
	return nil
}
