// Command vmafcompare checks vmaf-score against libvmaf's vmaf tool: it
// scores every clip pair of goldens-style directories with both tools, from
// the same raw frames and with the same options, and prints the worst
// absolute difference of every per-frame metric.
//
//	vmafcompare -libvmaf /usr/local/bin/vmaf -ours ./vmaf-score [flags] [DIR...]
//	vmafcompare -diff WANT.json GOT.json
//
// A goldens-style directory holds clips/<content>_<W>x<H>_<distortion>.y4m
// (or .y4m.xz) and the pair's reference clips/<content>_<W>x<H>_ref.y4m.
// The exit status is 0 when every metric is within tolerance, 1 when one is
// not (or is missing from vmaf-score's output), and 2 on a usage or run error.
//
// scripts/compare-libvmaf.sh wraps this with tool discovery.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is the parsed command line.
type config struct {
	libvmaf   string   // libvmaf's vmaf tool
	ours      string   // vmaf-score
	oursArgs  []string // extra leading arguments for vmaf-score
	oursInput string   // "raw" (the same file as libvmaf) or "y4m"
	modelDir  string   // holds vmaf_float_v0.6.1.json; empty: built-in model
	threads   int
	frames    int // per pair; 0 = all
	tol       tolerances
	only      *regexp.Regexp // pairs to run; nil = all
	ignore    *regexp.Regexp // metrics to leave out; nil = none
	keep      bool           // keep the temporary raw files and logs
	dirs      []string
}

const (
	exitOK      = 0
	exitDiffers = 1
	exitError   = 2
)

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vmafcompare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var oursArgs, only, ignore string
	var diffMode bool
	fs.StringVar(&c.libvmaf, "libvmaf", "", "libvmaf's vmaf tool")
	fs.StringVar(&c.ours, "ours", "", "the vmaf-score tool")
	fs.StringVar(&oursArgs, "ours-args", "--engine native", "extra arguments for vmaf-score, split on spaces")
	fs.StringVar(&c.oursInput, "ours-input", "raw", "what vmaf-score reads: raw (the file libvmaf reads) or y4m")
	fs.StringVar(&c.modelDir, "models", "", "directory with vmaf_float_v0.6.1.json (default: both tools' built-in model)")
	fs.IntVar(&c.threads, "threads", 2, "--threads for both tools")
	fs.IntVar(&c.frames, "frames", 0, "score only the first N frames of each pair (0 = all)")
	fs.Float64Var(&c.tol.score, "score-tol", 0.01, "largest allowed |difference| of a VMAF score")
	fs.Float64Var(&c.tol.feature, "feature-tol", 1e-4, "largest allowed |difference| of any other metric")
	fs.StringVar(&only, "pairs", "", "regexp: compare only the pairs whose name matches")
	fs.StringVar(&ignore, "ignore", "", "regexp: leave out the metrics whose name matches")
	fs.BoolVar(&c.keep, "keep", false, "keep the temporary directory (raw frames and logs)")
	fs.BoolVar(&diffMode, "diff", false, "compare two libvmaf-format JSON logs WANT GOT and exit")
	if err := fs.Parse(args); err != nil {
		return exitError
	}
	c.oursArgs = strings.Fields(oursArgs)
	c.dirs = fs.Args()
	var err error
	if c.only, err = compileOptional(only); err != nil {
		fmt.Fprintf(stderr, "vmafcompare: -pairs: %v\n", err)
		return exitError
	}
	if c.ignore, err = compileOptional(ignore); err != nil {
		fmt.Fprintf(stderr, "vmafcompare: -ignore: %v\n", err)
		return exitError
	}

	if diffMode {
		if len(c.dirs) != 2 {
			fmt.Fprintln(stderr, "vmafcompare: -diff takes two JSON logs: WANT GOT")
			return exitError
		}
		return diffFiles(c, c.dirs[0], c.dirs[1], stdout, stderr)
	}
	if err := c.check(); err != nil {
		fmt.Fprintf(stderr, "vmafcompare: %v\n", err)
		return exitError
	}
	return compareDirs(c, stdout, stderr)
}

func (c *config) check() error {
	switch {
	case c.libvmaf == "":
		return errors.New("-libvmaf is required")
	case c.ours == "":
		return errors.New("-ours is required")
	case c.oursInput != "raw" && c.oursInput != "y4m":
		return fmt.Errorf("-ours-input must be raw or y4m, not %q", c.oursInput)
	case c.threads < 0 || c.frames < 0:
		return errors.New("-threads and -frames must not be negative")
	}
	if len(c.dirs) == 0 {
		c.dirs = []string{"testdata/goldens"}
	}
	return nil
}

func compileOptional(expr string) (*regexp.Regexp, error) {
	if expr == "" {
		return nil, nil
	}
	return regexp.Compile(expr)
}

// diffFiles compares two existing logs, as if libvmaf had written want and
// vmaf-score got.
func diffFiles(c config, want, got string, stdout, stderr io.Writer) int {
	w, err := readLog(want)
	if err != nil {
		fmt.Fprintf(stderr, "vmafcompare: %v\n", err)
		return exitError
	}
	g, err := readLog(got)
	if err != nil {
		fmt.Fprintf(stderr, "vmafcompare: %v\n", err)
		return exitError
	}
	cmp := newComparison(c.ignore)
	cmp.add(want, w, g)
	if !cmp.report(stdout, c.tol) {
		return exitDiffers
	}
	return exitOK
}
