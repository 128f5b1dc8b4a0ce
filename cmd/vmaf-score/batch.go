package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

const batchUsage = `Usage: vmaf-score batch [--jobs N] [--shard I/N] [-q] JOBS

Scores every pair JOBS lists, N at a time (default: one per CPU), each as
its own vmaf-score process. JOBS is CSV with the header
reference,distorted,options,output or JSON lines of objects with those
keys (options: one string split as a shell splits words, or an array).
Relative paths are taken from JOBS's directory. An output's format is the
options' --xml/--json/--csv, or else its name's extension.

Each output is written under a temporary name and renamed when its pair
is done, so a rerun skips the pairs whose output exists and redoes the
rest. A pair that fails is reported and the others go on; the exit status
is then 255. --shard I/N takes only the pairs whose line number (from 0)
is I modulo N, so one JOBS file drives N machines.
`

// batchJob is one line of a JOBS file.
type batchJob struct {
	line      int // its number among the jobs, from 0
	ref, dist string
	options   []string
	output    string
}

// batchArgs is batch's command line.
type batchArgs struct {
	jobs         int
	shard, count int // --shard I/N; count 0: every job
	quiet        bool
	list         string
}

func parseBatchArgs(args []string) (*batchArgs, error) {
	b := &batchArgs{jobs: runtime.NumCPU()}
	value := func(i *int, name string) (string, error) {
		if *i+1 >= len(args) {
			return "", usagef("%s needs a value", name)
		}
		*i++
		return args[*i], nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, v, hasVal := strings.Cut(a, "=")
		switch name {
		case "--jobs", "-j":
			var err error
			if !hasVal {
				if v, err = value(&i, name); err != nil {
					return nil, err
				}
			}
			if b.jobs, err = strconv.Atoi(v); err != nil || b.jobs < 1 {
				return nil, invalid(v, "--jobs", "a positive number of pairs at once")
			}
		case "--shard":
			var err error
			if !hasVal {
				if v, err = value(&i, name); err != nil {
					return nil, err
				}
			}
			var s settings
			if err := s.setShard(v); err != nil {
				return nil, err
			}
			b.shard, b.count = s.shard.index, s.shard.count
		case "-q", "--quiet":
			b.quiet = true
		case "-h", "--help":
			return nil, errHelp
		default:
			if strings.HasPrefix(a, "-") || b.list != "" {
				return nil, usagef("unexpected argument %q", a)
			}
			b.list = a
		}
	}
	if b.list == "" {
		return nil, usagef("batch needs a JOBS file")
	}
	return b, nil
}

func runBatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	b, err := parseBatchArgs(args)
	if err == errHelp {
		fmt.Fprint(stdout, batchUsage)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "vmaf-score batch: %v (see vmaf-score batch --help)\n", err)
		return exitUsage
	}
	jobs, err := readJobs(b.list)
	if err != nil {
		fmt.Fprintf(stderr, "vmaf-score batch: %v\n", err)
		return exitError
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "vmaf-score batch: finding this program to run the pairs: %v\n", err)
		return exitError
	}
	r := &batchRunner{tool: self, out: stdout, errOut: stderr, quiet: b.quiet}
	var mine []batchJob
	for _, j := range jobs {
		if b.count == 0 || j.line%b.count == b.shard {
			mine = append(mine, j)
		}
	}
	sum := r.runAll(ctx, mine, b.jobs)
	fmt.Fprintf(stderr, "vmaf-score batch: %d pairs: %d scored, %d already done, %d failed\n",
		len(mine), sum.scored, sum.skipped, sum.failed)
	switch {
	case ctx.Err() != nil:
		return exitInterrupted
	case sum.failed > 0:
		return exitError
	}
	return exitOK
}

// readJobs reads a JOBS file, CSV or JSON lines, resolving its relative
// paths from the file's directory.
func readJobs(path string) ([]batchJob, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var jobs []batchJob
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		jobs, err = readJSONJobs(data)
	} else {
		jobs, err = readCSVJobs(data)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dir := filepath.Dir(path)
	seen := map[string]int{}
	for i := range jobs {
		j := &jobs[i]
		j.line = i
		for _, p := range []*string{&j.ref, &j.dist, &j.output} {
			if *p != "" && *p != "-" && !filepath.IsAbs(*p) {
				*p = filepath.Join(dir, *p)
			}
		}
		if j.ref == "" || j.dist == "" || j.output == "" {
			return nil, fmt.Errorf("%s: job %d needs a reference, a distorted input and an output", path, i)
		}
		if prev, ok := seen[j.output]; ok {
			return nil, fmt.Errorf("%s: jobs %d and %d write the same output %s", path, prev, i, j.output)
		}
		seen[j.output] = i
	}
	return jobs, nil
}

func readCSVJobs(data []byte) ([]batchJob, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comment = '#'
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errors.New("no header: want reference,distorted,options,output")
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[strings.TrimSpace(strings.ToLower(h))] = i
	}
	for _, k := range []string{"reference", "distorted", "output"} {
		if _, ok := col[k]; !ok {
			return nil, fmt.Errorf("the header has no %q column: want reference,distorted,options,output", k)
		}
	}
	get := func(row []string, k string) string {
		i, ok := col[k]
		if !ok || i >= len(row) {
			return ""
		}
		return strings.TrimSpace(row[i])
	}
	var jobs []batchJob
	for n, row := range rows[1:] {
		opts, err := splitWords(get(row, "options"))
		if err != nil {
			return nil, fmt.Errorf("row %d: options: %w", n+2, err)
		}
		jobs = append(jobs, batchJob{ref: get(row, "reference"), dist: get(row, "distorted"),
			options: opts, output: get(row, "output")})
	}
	return jobs, nil
}

func readJSONJobs(data []byte) ([]batchJob, error) {
	var jobs []batchJob
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		var j struct {
			Reference string          `json:"reference"`
			Distorted string          `json:"distorted"`
			Options   json.RawMessage `json:"options"`
			Output    string          `json:"output"`
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&j); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		var opts []string
		if len(j.Options) > 0 && string(j.Options) != "null" {
			var s string
			if err := json.Unmarshal(j.Options, &opts); err != nil {
				if err := json.Unmarshal(j.Options, &s); err != nil {
					return nil, fmt.Errorf("line %d: options: a string or an array of strings", n)
				}
				if opts, err = splitWords(s); err != nil {
					return nil, fmt.Errorf("line %d: options: %w", n, err)
				}
			}
		}
		jobs = append(jobs, batchJob{ref: j.Reference, dist: j.Distorted, options: opts, output: j.Output})
	}
	return jobs, sc.Err()
}

// splitWords splits s into words as a POSIX shell does, with single and
// double quotes and backslashes, but no expansions.
func splitWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, c := range s {
		switch {
		case escaped:
			w.WriteRune(c)
			escaped = false
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				w.WriteRune(c)
			}
		case c == '\\':
			escaped, inWord = true, true
		case quote == '"':
			if c == '"' {
				quote = 0
			} else {
				w.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(c)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return nil, fmt.Errorf("unterminated quote or escape in %q", s)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// batchRunner runs pairs as processes of tool.
type batchRunner struct {
	tool        string
	mu          sync.Mutex // out and errOut
	out, errOut io.Writer  // what went well; what failed
	quiet       bool
}

type batchSummary struct{ scored, skipped, failed int }

// runAll runs the jobs, at most n at once, until all are done or ctx
// ends.
func (r *batchRunner) runAll(ctx context.Context, jobs []batchJob, n int) batchSummary {
	var sum batchSummary
	var mu sync.Mutex
	work := make(chan batchJob)
	var wg sync.WaitGroup
	for range min(n, max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				res := r.runOne(ctx, j)
				mu.Lock()
				switch res {
				case pairScored:
					sum.scored++
				case pairSkipped:
					sum.skipped++
				case pairFailed:
					sum.failed++
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		work <- j
	}
	close(work)
	wg.Wait()
	return sum
}

type pairResult int

const (
	pairScored pairResult = iota
	pairSkipped
	pairFailed
	pairStopped
)

// runOne scores one pair into a temporary file beside its output, and
// renames it to the output once the pair is done.
func (r *batchRunner) runOne(ctx context.Context, j batchJob) pairResult {
	if _, err := os.Stat(j.output); err == nil {
		r.report("done %s (already there)", j.output)
		return pairSkipped
	}
	if err := os.MkdirAll(filepath.Dir(j.output), 0o755); err != nil {
		r.report("FAIL %s: %v", j.output, err)
		return pairFailed
	}
	tmp := filepath.Join(filepath.Dir(j.output), fmt.Sprintf(".%s.%d.tmp", filepath.Base(j.output), os.Getpid()))
	args := []string{"-r", j.ref, "-d", j.dist, "-q"}
	args = append(args, j.options...)
	if !hasFormat(j.options) {
		switch strings.ToLower(filepath.Ext(j.output)) {
		case ".json":
			args = append(args, "--json")
		case ".csv":
			args = append(args, "--csv")
		}
	}
	args = append(args, "-o", tmp)
	cmd := exec.CommandContext(ctx, r.tool, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 30 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	if err != nil {
		os.Remove(tmp)
		if ctx.Err() != nil {
			r.report("stopped %s", j.output)
			return pairStopped
		}
		r.report("FAIL %s (%s vs %s): %v: %s", j.output, j.ref, j.dist, err, lastLines(errb.String(), 5))
		return pairFailed
	}
	if err := os.Rename(tmp, j.output); err != nil {
		os.Remove(tmp)
		r.report("FAIL %s: %v", j.output, err)
		return pairFailed
	}
	r.report("ok   %s (%.1f s) %s", j.output, time.Since(start).Seconds(), strings.Join(strings.Fields(out.String()), " "))
	return pairScored
}

func (r *batchRunner) report(format string, args ...any) {
	w := r.out
	if strings.HasPrefix(format, "FAIL") {
		w = r.errOut
	} else if r.quiet {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(w, format+"\n", args...)
}

// hasFormat reports whether options choose the output format.
func hasFormat(options []string) bool {
	for _, o := range options {
		switch o {
		case "--xml", "--json", "--csv", "--sub":
			return true
		}
	}
	return false
}

// lastLines is the end of a process's stderr, on one line.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}
