package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/vmafsink/vmafsink/tune"
)

func bdRateUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: vmaf-tune bd-rate [options] ANCHOR TEST

Prints the Bjøntegaard delta rate of TEST against ANCHOR: the mean change in
bitrate at equal quality, over the scores both curves cover, as Netflix's
calculate_bd_rate defines it (PCHIP of log rate over score, 100 samples,
trapezoid rule). Negative: TEST needs less bitrate. Each file holds
(bitrate, score) points: CSV with a "bitrate,vmaf" header, or JSON (a list of
{"bitrate": R, "vmaf": S} or of [R, S]).

  --at-perc P        compare at one score, P percent (0 to 100) of the way up
                     the common score range, instead of averaging
  --min-metric A     integrate from score A at the lowest (0: no bound)
  --max-metric B     integrate up to score B at the highest (0: no bound)
  --convex-hull      use each curve's convex hull instead of its points
  --json             print {"bd_rate": FRACTION}
  --help             print this help and exit

Refused, with exit status 255: a curve of fewer than 4 points, a curve
whose rate and score do not both rise, a zero rate, curves whose score
ranges do not overlap.
`)
}

func runBDRate(args []string, stdout, stderr io.Writer) int {
	var (
		opt      tune.BDOptions
		asJSON   bool
		help     bool
		files    []string
		min, max float64
	)
	err := parseOptions(args, []option{
		optFloatOpt(&opt.AtPerc, "--at-perc"),
		floatOpt(&min, "--min-metric"),
		floatOpt(&max, "--max-metric"),
		flagOpt(&opt.ConvexHull, "--convex-hull"),
		flagOpt(&asJSON, "--json"),
		flagOpt(&help, "--help", "-h"),
	}, func(a string) error { files = append(files, a); return nil })
	if err == nil && !help && len(files) != 2 {
		err = usagef("bd-rate needs two files, the anchor's and the test's (got %d)", len(files))
	}
	if err == nil && opt.AtPerc != nil && (*opt.AtPerc < 0 || *opt.AtPerc > 100) {
		err = usagef("--at-perc must be between 0 and 100, got %g", *opt.AtPerc)
	}
	if err != nil {
		return usageFailure(stderr, "bd-rate", err)
	}
	if help {
		bdRateUsage(stdout)
		return exitOK
	}
	opt.MinMetric, opt.MaxMetric = min, max
	curves := make([][]tune.RDPoint, 2)
	for i, f := range files {
		if curves[i], err = tune.ReadPoints(f); err != nil {
			return failure(stderr, err)
		}
	}
	v, err := tune.BDRate(curves[0], curves[1], opt)
	if err != nil {
		return failure(stderr, err)
	}
	if asJSON {
		b, _ := json.Marshal(map[string]float64{"bd_rate": v})
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		fmt.Fprintf(stdout, "BD-rate: %+.4f%% (%.17g)\n", v*100, v)
	}
	return exitOK
}
