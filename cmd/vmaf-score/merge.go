package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

// subcommands are the words vmaf-score takes before its options (libvmaf's
// tool takes no bare arguments, so none can mean anything else there).
var subcommands = map[string]func(context.Context, []string, io.Writer, io.Writer) int{
	"merge": runMerge,
	"batch": runBatch,
}

const mergeUsage = `Usage: vmaf-score merge -o OUT [--xml|--json|--csv] [-q] PART...

Joins the parts of one run, written by vmaf-score --shard I/N or --frames A:B
(given in any order), into OUT: the document the whole run would have
written, every frame and pooled value as it prints them, with the windows,
drops and percentiles its options ask for. OUT is in the parts' format
unless --xml, --json or --csv says otherwise; - is standard output.
The parts must be of one run (same inputs, models, features and options)
and cover it once: a frame missing or scored twice is an error.
`

// mergeArgs is merge's command line.
type mergeArgs struct {
	output    string
	format    report.Format
	formatSet bool
	quiet     bool
	parts     []string
}

func parseMergeArgs(args []string) (*mergeArgs, error) {
	m := &mergeArgs{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-o" || a == "--output":
			if i+1 >= len(args) {
				return nil, usagef("%s needs a file name", a)
			}
			i++
			m.output = args[i]
		case strings.HasPrefix(a, "--output="):
			m.output = strings.TrimPrefix(a, "--output=")
		case a == "--xml" || a == "--json" || a == "--csv":
			f, _ := report.ParseFormat(a[2:])
			m.format, m.formatSet = f, true
		case a == "-q" || a == "--quiet":
			m.quiet = true
		case a == "--help" || a == "-h":
			return nil, errHelp
		case strings.HasPrefix(a, "-") && a != "-":
			return nil, usagef("unknown option %s", a)
		default:
			m.parts = append(m.parts, a)
		}
	}
	if m.output == "" {
		return nil, usagef("merge needs -o OUT")
	}
	if len(m.parts) == 0 {
		return nil, usagef("merge needs the parts to join")
	}
	return m, nil
}

var errHelp = fmt.Errorf("help")

func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	m, err := parseMergeArgs(args)
	if err == errHelp {
		fmt.Fprint(stdout, mergeUsage)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "vmaf-score merge: %v (see vmaf-score merge --help)\n", err)
		return exitUsage
	}
	if err := mergeParts(ctx, m, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "vmaf-score merge: %v\n", err)
		return exitError
	}
	return exitOK
}

// loadedPart is a part's section as read, with the file it came from;
// its frames are decoded one part at a time as they are written.
type loadedPart struct {
	path string
	sec  *partSection
}

// frames decodes the part's frames and checks they are its own.
func (p *loadedPart) frames() (*decodedFrames, error) {
	d, err := p.sec.Frames.decode()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.path, err)
	}
	if n := d.len(); n > 0 {
		if lo, hi := int(int64(d.index[0])), int(int64(d.index[n-1])); lo < p.sec.First || hi >= p.sec.End {
			return nil, fmt.Errorf("%s: frames %d-%d lie outside the part's frames %d-%d", p.path, lo, hi, p.sec.First, p.sec.End-1)
		}
	}
	return d, nil
}

// mergeParts checks the parts are one run, whole, and writes it.
func mergeParts(ctx context.Context, m *mergeArgs, stdout, stderr io.Writer) error {
	parts := make([]loadedPart, len(m.parts))
	for i, p := range m.parts {
		sec, format, err := readPart(p)
		if err != nil {
			return err
		}
		parts[i] = loadedPart{path: p, sec: sec}
		if i == 0 && !m.formatSet {
			m.format = format
		}
	}
	if err := sameRun(parts); err != nil {
		return err
	}
	slices.SortStableFunc(parts, func(a, b loadedPart) int { return a.sec.First - b.sec.First })
	if err := wholeRun(parts); err != nil {
		return err
	}
	if m.output == "-" || isStream(m.output) {
		return writeMerged(ctx, m, parts, stdout, stderr)
	}
	// Written whole under another name, then renamed: a merge that fails
	// half-way leaves no document that looks like the run's.
	final := m.output
	tmp, err := os.CreateTemp(filepath.Dir(final), "."+filepath.Base(final)+".*.tmp")
	if err != nil {
		return fmt.Errorf("output: %w", err)
	}
	tmp.Close()
	// CreateTemp's file is the owner's only; a results file is not secret.
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("output: %w", err)
	}
	m.output = tmp.Name()
	defer func() { m.output = final }()
	if err := writeMerged(ctx, m, parts, stdout, stderr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("output: %w", err)
	}
	return nil
}

// sameRun checks every part records the same run as the first.
func sameRun(parts []loadedPart) error {
	first := parts[0]
	want, _ := json.Marshal(first.sec.Run)
	for _, p := range parts[1:] {
		got, _ := json.Marshal(p.sec.Run)
		if string(got) == string(want) {
			continue
		}
		a, b := first.sec.Run, p.sec.Run
		var diff string
		switch {
		case a.Tool != b.Tool:
			diff = fmt.Sprintf("vmaf-score %s, not %s", b.Tool, a.Tool)
		case a.Inputs != b.Inputs:
			diff = fmt.Sprintf("inputs %s (%d bytes) and %s (%d bytes), not %s (%d bytes) and %s (%d bytes)",
				b.Inputs[0].Path, b.Inputs[0].Size, b.Inputs[1].Path, b.Inputs[1].Size,
				a.Inputs[0].Path, a.Inputs[0].Size, a.Inputs[1].Path, a.Inputs[1].Size)
		case !slices.Equal(a.Args, b.Args):
			diff = fmt.Sprintf("options %q, not %q", strings.Join(b.Args, " "), strings.Join(a.Args, " "))
		default:
			diff = fmt.Sprintf("pictures %dx%d %s %d-bit, not %dx%d %s %d-bit",
				b.Width, b.Height, b.Chroma, b.BitDepth, a.Width, a.Height, a.Chroma, a.BitDepth)
		}
		return fmt.Errorf("%s is not a part of the run %s belongs to: %s", p.path, first.path, diff)
	}
	return nil
}

// wholeRun checks the sorted parts cover the run's frames from 0 to the
// end of the run once each, naming every frame missing or scored twice.
func wholeRun(parts []loadedPart) error {
	var problems []string
	span := func(a, b int) string {
		if b-a == 1 {
			return fmt.Sprintf("frame %d", a)
		}
		return fmt.Sprintf("frames %d-%d", a, b-1)
	}
	next := 0
	var prev *loadedPart
	ended := false
	for i := range parts {
		p := &parts[i]
		s := p.sec
		switch {
		case ended:
			problems = append(problems, fmt.Sprintf("%s are extra: %s (%s) ends the run at frame %d",
				span(s.First, s.End), prev.path, prev.sec.Shard, prev.sec.End-1))
			continue
		case s.First > next:
			problems = append(problems, fmt.Sprintf("%s are missing: no part has them", span(next, s.First)))
		case s.First < next:
			problems = append(problems, fmt.Sprintf("%s are in both %s (%s) and %s (%s)",
				span(s.First, min(next, s.End)), prev.path, prev.sec.Shard, p.path, s.Shard))
		}
		if s.End > next {
			next = s.End
			prev = p
		}
		ended = ended || s.EOS
	}
	if !ended {
		problems = append(problems, fmt.Sprintf("frames from %d on are missing: %s (%s) ends at frame %d and no part reaches the end of the run",
			next, prev.path, prev.sec.Shard, next-1))
	}
	if len(problems) > 0 {
		return fmt.Errorf("the parts do not make one whole run: %s", strings.Join(problems, "; "))
	}
	return nil
}

// writeMerged sets up the run's output from its recorded options and
// replays every part's exact results through it, in frame order.
func writeMerged(ctx context.Context, m *mergeArgs, parts []loadedPart, stdout, stderr io.Writer) error {
	run := parts[0].sec.Run
	s, err := parseArgs(run.Args)
	if err == nil {
		err = s.check()
	}
	if err != nil {
		return fmt.Errorf("the parts' options: %w", err)
	}
	s.output, s.format, s.formatSet = m.output, m.format, true
	s.quiet = s.quiet || m.quiet
	chroma, err := vmaf.ParseChroma(run.Chroma)
	if err != nil {
		return err
	}
	f := picFormat{Width: run.Width, Height: run.Height, BitDepth: run.BitDepth, Chroma: chroma}
	if s.threads > 0 {
		s.features = dropUnfitMSSSIM(s.features, f, io.Discard)
	}
	models, err := s.loadModels()
	if err != nil {
		return err
	}
	j := &job{s: s, models: models, stdout: stdout, stderr: stderr}
	closeOut, err := j.prepare(f, partsClock(parts))
	if err != nil {
		return err
	}
	defer closeOut()
	if err := j.startLiveFor(nil); err != nil {
		return err
	}
	n := 0
	var r vmaf.Result
	for i := range parts {
		if err := ctx.Err(); err != nil {
			return errInterrupted
		}
		frames, err := parts[i].frames()
		if err != nil {
			return err
		}
		parts[i].sec.Frames = partFrames{} // its values are in frames now
		for range frames.len() {
			fr := frames.nextFrame()
			if j.live != nil {
				pts := time.Duration(fr.pts)
				if fr.pts == int64(analytics.NoTime) {
					pts = noPTS
				}
				j.live.submitted(fr.index, frame{pts: pts})
			}
			r = vmaf.Result{Index: fr.index, Models: j.models, Metrics: fr.metrics}
			j.results.add(&r)
			n++
		}
	}
	if j.live != nil {
		j.live.end = time.Duration(parts[len(parts)-1].sec.EndTime)
	}
	j.live.finish()
	if j.out != nil {
		states := make([][]vmaf.AggregateState, len(parts))
		for i, p := range parts {
			states[i] = p.sec.Aggregates
		}
		aggs, err := vmaf.AggregatesOf(j.engineConfig(nil),
			vmaf.Picture{Width: f.Width, Height: f.Height, BitDepth: f.BitDepth, Chroma: f.Chroma}, states)
		if err != nil {
			return err
		}
		for _, a := range aggs {
			j.out.SetAggregate(a.Name, a.Value)
		}
	}
	return j.finish(n, nil)
}

// partsClock is the merged output's clock: its processing rate is the
// run's frames over the parts' scoring time, as one machine would have
// taken it. It advances by an equal share of that time at each reading
// after the first (the Writer reads it once at the start and once a
// frame), so the output is committed about once a second of it, not all
// at the end.
func partsClock(parts []loadedPart) func() time.Time {
	var total float64
	frames := 0
	for _, p := range parts {
		total += p.sec.Seconds
		frames += p.sec.Frames.count()
	}
	step := time.Duration(total * float64(time.Second) / float64(max(frames, 1)))
	t := time.Unix(0, 0)
	first := true
	return func() time.Time {
		if !first {
			t = t.Add(step)
		}
		first = false
		return t
	}
}
