package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strings"
	"text/tabwriter"
)

// vmafLog is the part of libvmaf's JSON log that is compared. A metric is
// nil where libvmaf wrote null (a NaN or infinite value).
type vmafLog struct {
	Frames []struct {
		FrameNum int                 `json:"frameNum"`
		Metrics  map[string]*float64 `json:"metrics"`
	} `json:"frames"`
}

func readLog(path string) (*vmafLog, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading score log: %w", err)
	}
	var l vmafLog
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("parsing score log %s: %w", path, err)
	}
	return &l, nil
}

// scoreNames are the model outputs, named as compareDirs names the models;
// every other metric is a feature.
var scoreNames = map[string]bool{"vmaf": true, "vmaf_neg": true, "vmaf_float": true, "vmaf_4k": true}

type tolerances struct{ score, feature float64 }

func (t tolerances) of(metric string) float64 {
	if scoreNames[metric] {
		return t.score
	}
	return t.feature
}

// worst is the largest difference seen for one metric and where.
type worst struct {
	diff  float64 // +Inf when only one side has a finite value
	pair  string
	frame int
	n     int // values compared
}

// comparison accumulates differences over pairs.
type comparison struct {
	ignore   *regexp.Regexp
	metrics  map[string]*worst
	missing  map[string][]string // metric -> pairs whose candidate log lacks it
	extra    map[string][]string // metric -> pairs where only the candidate has it
	problems []string            // frame count or numbering mismatches, run errors
	pairs    []pairSummary

	storedChecked int      // pairs whose stored libvmaf log was compared
	storedDiffer  []string // how libvmaf's fresh logs differ from the stored ones
}

type pairSummary struct {
	name                   string
	frames                 int
	scoreDiff, featureDiff float64
	featureMetric          string
}

func newComparison(ignore *regexp.Regexp) *comparison {
	return &comparison{
		ignore:  ignore,
		metrics: map[string]*worst{},
		missing: map[string][]string{},
		extra:   map[string][]string{},
	}
}

func (c *comparison) problem(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// add compares the candidate log got against want, frame by frame.
func (c *comparison) add(pair string, want, got *vmafLog) {
	s := pairSummary{name: pair}
	if len(want.Frames) != len(got.Frames) {
		c.problem("%s: libvmaf scored %d frames, vmaf-score %d", pair, len(want.Frames), len(got.Frames))
	}
	n := min(len(want.Frames), len(got.Frames))
	s.frames = n
	missing, extra := map[string]bool{}, map[string]bool{}
	for i := 0; i < n; i++ {
		wf, gf := want.Frames[i], got.Frames[i]
		if wf.FrameNum != gf.FrameNum {
			c.problem("%s: frame %d is numbered %d by libvmaf but %d by vmaf-score", pair, i, wf.FrameNum, gf.FrameNum)
		}
		for name, wv := range wf.Metrics {
			if c.ignored(name) {
				continue
			}
			gv, ok := gf.Metrics[name]
			if !ok {
				missing[name] = true
				continue
			}
			d := absDiff(wv, gv)
			c.record(name, d, pair, wf.FrameNum)
			if scoreNames[name] {
				s.scoreDiff = math.Max(s.scoreDiff, d)
			} else if d > s.featureDiff {
				s.featureDiff, s.featureMetric = d, name
			}
		}
		for name := range gf.Metrics {
			if _, ok := wf.Metrics[name]; !ok && !c.ignored(name) {
				extra[name] = true
			}
		}
	}
	for name := range missing {
		c.missing[name] = append(c.missing[name], pair)
	}
	for name := range extra {
		c.extra[name] = append(c.extra[name], pair)
	}
	c.pairs = append(c.pairs, s)
}

func (c *comparison) ignored(name string) bool {
	return c.ignore != nil && c.ignore.MatchString(name)
}

func (c *comparison) record(name string, d float64, pair string, frame int) {
	w := c.metrics[name]
	if w == nil {
		w = &worst{diff: -1}
		c.metrics[name] = w
	}
	w.n++
	if d > w.diff {
		w.diff, w.pair, w.frame = d, pair, frame
	}
}

// absDiff is |a-b|, 0 when both are null and +Inf when only one is.
func absDiff(a, b *float64) float64 {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil || b == nil:
		return math.Inf(1)
	}
	return math.Abs(*a - *b)
}

// report prints the per-pair summary and the per-metric table, and says
// whether everything is within tolerance with nothing missing.
func (c *comparison) report(out io.Writer, tol tolerances) bool {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "pair\tframes\tworst score diff\tworst feature diff\t")
	for _, p := range c.pairs {
		fmt.Fprintf(tw, "%s\t%d\t%.3g\t%.3g%s\t\n", p.name, p.frames, p.scoreDiff, p.featureDiff, parenthesized(p.featureMetric))
	}
	fmt.Fprintln(tw)

	names := make([]string, 0, len(c.metrics))
	for name := range c.metrics {
		names = append(names, name)
	}
	// Scores first, then features, each alphabetically.
	sort.Slice(names, func(i, j int) bool {
		si, sj := scoreNames[names[i]], scoreNames[names[j]]
		if si != sj {
			return si
		}
		return names[i] < names[j]
	})
	ok := true
	fmt.Fprintln(tw, "metric\tworst |diff|\ttolerance\tvalues\tat\t")
	for _, name := range names {
		w := c.metrics[name]
		verdict := ""
		if w.diff > tol.of(name) {
			verdict, ok = "  FAIL", false
		}
		at := "-"
		if w.diff > 0 {
			at = fmt.Sprintf("%s frame %d", w.pair, w.frame)
		}
		fmt.Fprintf(tw, "%s\t%.3g\t%g\t%d\t%s%s\t\n", name, w.diff, tol.of(name), w.n, at, verdict)
	}
	tw.Flush()

	if len(c.missing) > 0 {
		ok = false
		fmt.Fprintln(out, "\nmissing from vmaf-score's output (FAIL):")
		printNamed(out, c.missing)
	}
	if len(c.extra) > 0 {
		fmt.Fprintln(out, "\nonly in vmaf-score's output (not compared):")
		printNamed(out, c.extra)
	}
	if len(c.problems) > 0 {
		ok = false
		fmt.Fprintln(out, "\nproblems (FAIL):")
		for _, p := range c.problems {
			fmt.Fprintln(out, "  "+p)
		}
	}
	if c.storedChecked > 0 {
		if len(c.storedDiffer) == 0 {
			fmt.Fprintf(out, "\nlibvmaf reproduces the stored scores of %d pairs\n", c.storedChecked)
		} else {
			fmt.Fprintln(out, "\nWARNING: this libvmaf does not reproduce the stored scores (another version or build?):")
			for _, d := range c.storedDiffer {
				fmt.Fprintln(out, "  "+d)
			}
		}
	}
	if ok {
		fmt.Fprintf(out, "\nOK: VMAF scores within %g, features within %g\n", tol.score, tol.feature)
	} else {
		fmt.Fprintln(out, "\nFAIL")
	}
	return ok
}

func parenthesized(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func printNamed(out io.Writer, m map[string][]string) {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(out, "  %s (%s)\n", name, strings.Join(m[name], ", "))
	}
}

// storedTolerance allows for the stored logs' 6 printed decimals.
const storedTolerance = 1e-6

// checkStored notes whether libvmaf's fresh log matches the stored one over
// the frames both have. It does not fail the comparison: it tells whether
// the installed libvmaf is the one the stored scores came from.
func (c *comparison) checkStored(pair string, stored, fresh *vmafLog) {
	c.storedChecked++
	if d, metric, frame := largestDiff(stored, fresh); d > storedTolerance {
		c.storedDiffer = append(c.storedDiffer, fmt.Sprintf("%s: %s differs by %.3g at frame %d", pair, metric, d, frame))
	}
}

// largestDiff is the largest |difference| over the frames and metrics both
// logs have, and where it is; metric is "" when nothing differs.
func largestDiff(want, got *vmafLog) (d float64, metric string, frame int) {
	for i := 0; i < min(len(want.Frames), len(got.Frames)); i++ {
		for name, wv := range want.Frames[i].Metrics {
			gv, ok := got.Frames[i].Metrics[name]
			if !ok {
				continue
			}
			if x := absDiff(wv, gv); x > d {
				d, metric, frame = x, name, want.Frames[i].FrameNum
			}
		}
	}
	return d, metric, frame
}
