// Command vmafbench times vmaf-score against libvmaf's vmaf tool on the same
// raw frames and prints a Markdown table: the median frames/s of each tool,
// the ratio of vmaf-score's to each libvmaf variant's, and peak memory, for
// every picture size and thread count.
//
//	vmafbench -libvmaf vmaf -ours vmaf-score [flags] WxH:REF.yuv:DIS.yuv ...
//
// The tools run in turn (native, libvmaf, native, libvmaf, ...) so that a
// change in machine load hits them alike. Every run's VMAF, pooled and per
// frame, is compared with libvmaf's from the same round: a speed-up that
// changes a score makes the exit status 1. Status 2 is a usage or run error.
//
// scripts/bench-vs-libvmaf.sh makes the frames and wraps this.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const (
	exitOK      = 0
	exitDiffers = 1
	exitError   = 2
)

// config is the parsed command line.
type config struct {
	tools   []tool // tools[0] is the one timed against the others
	threads []int
	runs    int
	tol     float64
	pixFmt  string
	depth   int
	workDir string
	cases   []benchCase
	// feature, when set, times that extractor alone (-n --feature SPEC)
	// instead of the default model, and metric is the output compared.
	feature string
	metric  string
}

func run(args []string, stdout, stderr io.Writer) int {
	c, err := parseArgs(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "vmafbench: %v\n", err)
		}
		return exitError
	}
	if c.workDir == "" {
		dir, err := os.MkdirTemp("", "vmafbench-")
		if err != nil {
			fmt.Fprintf(stderr, "vmafbench: %v\n", err)
			return exitError
		}
		defer os.RemoveAll(dir)
		c.workDir = dir
	}
	rows, err := benchAll(c, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "vmafbench: %v\n", err)
		return exitError
	}
	writeTables(stdout, c, rows)
	for _, r := range rows {
		if r.worstPooled > c.tol || r.worstFrame > c.tol {
			return exitDiffers
		}
	}
	return exitOK
}

func parseArgs(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("vmafbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var libvmaf, ours, oursArgs, threads, cpumask string
	fs.StringVar(&libvmaf, "libvmaf", "", "libvmaf's vmaf tool")
	fs.StringVar(&ours, "ours", "", "the vmaf-score tool")
	fs.StringVar(&oursArgs, "ours-args", "--engine native", "extra arguments for vmaf-score, split on spaces")
	fs.StringVar(&cpumask, "cpumask", "", "also time libvmaf with --cpumask MASK (48: no AVX-512) as a third tool")
	fs.StringVar(&threads, "threads", "1,2", "comma-separated --threads values")
	fs.IntVar(&c.runs, "runs", 5, "timed runs of each tool per size and thread count")
	fs.Float64Var(&c.tol, "tol", 1e-4, "largest allowed |difference| of VMAF between the tools")
	fs.StringVar(&c.pixFmt, "p", "420", "pixel format of the raw frames: 420, 422 or 444")
	fs.IntVar(&c.depth, "b", 8, "bit depth of the raw frames")
	fs.StringVar(&c.workDir, "work", "", "directory for the tools' logs (default: a temporary one, removed)")
	fs.StringVar(&c.feature, "feature", "", "time this --feature request alone (with -n) instead of the vmaf_v0.6.1 model")
	fs.StringVar(&c.metric, "metric", "vmaf", "the metric both tools must agree on, frame by frame and pooled")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if libvmaf == "" || ours == "" {
		return c, errors.New("-libvmaf and -ours are required")
	}
	if c.runs < 1 {
		return c, errors.New("-runs must be at least 1")
	}
	c.tools = []tool{
		{name: "native", bin: ours, args: strings.Fields(oursArgs)},
		{name: "libvmaf", bin: libvmaf},
	}
	if cpumask != "" {
		c.tools = append(c.tools, tool{name: "libvmaf cpumask=" + cpumask, bin: libvmaf, args: []string{"--cpumask", cpumask}})
	}
	var err error
	if c.threads, err = parseInts(threads); err != nil {
		return c, fmt.Errorf("-threads: %w", err)
	}
	if fs.NArg() == 0 {
		return c, errors.New("no WxH:REF.yuv:DIS.yuv case given")
	}
	for _, a := range fs.Args() {
		bc, err := parseCase(a)
		if err != nil {
			return c, err
		}
		c.cases = append(c.cases, bc)
	}
	return c, nil
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%q is not a thread count", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// benchCase is one picture size and the raw frames both tools read.
type benchCase struct {
	width, height int
	ref, dist     string
}

func (b benchCase) size() string { return fmt.Sprintf("%dx%d", b.width, b.height) }

// parseCase reads WxH:REF:DIS.
func parseCase(s string) (benchCase, error) {
	parts := strings.SplitN(s, ":", 3)
	if len(parts) != 3 || parts[1] == "" || parts[2] == "" {
		return benchCase{}, fmt.Errorf("case %q: want WxH:REF.yuv:DIS.yuv", s)
	}
	w, h, ok := strings.Cut(parts[0], "x")
	bc := benchCase{ref: parts[1], dist: parts[2]}
	var errW, errH error
	bc.width, errW = strconv.Atoi(w)
	bc.height, errH = strconv.Atoi(h)
	if !ok || errW != nil || errH != nil || bc.width <= 0 || bc.height <= 0 {
		return benchCase{}, fmt.Errorf("case %q: %q is not a WxH size", s, parts[0])
	}
	return bc, nil
}
