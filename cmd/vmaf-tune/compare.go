package main

import (
	"context"
	"fmt"
	"io"

	"github.com/vmafsink/vmafsink/tune"
)

func compareUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: vmaf-tune compare -i SOURCE --encoders LIST --targets LIST [options]

Compares encoders on one source: each is searched to each VMAF target (as
crf-search does) and ranked by bitrate there, with its CRF, score and
encode time; and each is swept over CRFs for its BD-rate against the first
encoder, the anchor (Netflix's calculate_bd_rate on each curve's convex
hull). Probes are cached and shared with the other commands.

  -i, --input FILE     the source
  --encoders LIST      NAME[:PRESET],... e.g. libx264:veryfast,libx265:fast,libsvtav1:10
  --targets LIST       VMAF targets, e.g. 90,95 (default 95)
  --aggregate A        mean (default), harmonic_mean or pN
  --tolerance T        as crf-search (default 0.5)
  --sweep N            CRFs in each encoder's BD-rate curve (default 5)
  -m, --model SPEC     the VMAF model (default version=vmaf_v0.6.1)
  --threads N, --jobs N, --cache-dir DIR, --no-cache, --mcp-uds SOCK, --mcp-start-paused,
  -q, --json, --help: as crf-search
`)
}

func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var (
		o                  tune.CompareOptions
		f                  sessionFlags
		encs, targets, agg string
	)
	o.Tolerance = 0.5
	err := parseOptions(args, append(f.options(),
		stringOpt(&encs, "--encoders"),
		stringOpt(&targets, "--targets"),
		stringOpt(&agg, "--aggregate"),
		floatOpt(&o.Tolerance, "--tolerance"),
		intOpt(&o.Sweep, 4, 20, "--sweep"),
	), nil)
	if err == nil && !f.help {
		err = checkCompareArgs(&o, &f.so, encs, targets, agg)
	}
	if err != nil {
		return usageFailure(stderr, "compare", err)
	}
	if f.help {
		compareUsage(stdout)
		return exitOK
	}
	return runInSession("compare", &f, stdout, stderr, func(s *tune.Session) (*tune.CompareResult, error) { return s.Compare(ctx, o) }, writeCompare)
}

func writeCompare(stdout io.Writer, r *tune.CompareResult) {
	for _, row := range r.Rows {
		label := tune.EncoderLabel(tune.Encoder{Name: row.Encoder, Preset: row.Preset})
		if row.Error != "" {
			fmt.Fprintf(stdout, "target %-5g  -  %-20s %s\n", row.Target, label, row.Error)
			continue
		}
		fmt.Fprintf(stdout, "target %-5g %2d  %-20s crf %-6g vmaf %7.3f  %9.1f kb/s  %6.2f s\n",
			row.Target, row.Rank, label, row.CRF, row.VMAF, row.BitrateKbps, row.EncodeSeconds)
	}
	for _, c := range r.Curves[1:] {
		label := tune.EncoderLabel(tune.Encoder{Name: c.Encoder, Preset: c.Preset})
		if c.BDRate != nil {
			fmt.Fprintf(stdout, "BD-rate of %s against %s: %+.2f%%\n", label, r.Anchor, *c.BDRate*100)
		} else {
			fmt.Fprintf(stdout, "BD-rate of %s against %s: %s\n", label, r.Anchor, c.BDRateError)
		}
	}
}

func checkCompareArgs(o *tune.CompareOptions, so *tune.SessionOptions, encs, targets, agg string) error {
	var err error
	if so.Source == "" {
		return usagef("no source (-i)")
	}
	if encs == "" {
		return usagef("no --encoders")
	}
	if o.Encoders, err = tune.ParseEncoders(encs); err != nil {
		return usagef("%v", err)
	}
	o.Targets = []float64{95}
	if targets != "" {
		if o.Targets, err = parseFloats(targets, "--targets"); err != nil {
			return err
		}
	}
	for _, t := range o.Targets {
		if t <= 0 || t > 100 {
			return usagef("target %g: want a score above 0 and at most 100", t)
		}
	}
	if o.Aggregate, err = tune.ParseAggregate(agg); err != nil {
		return usagef("%v", err)
	}
	defaultJobs(so)
	return nil
}
