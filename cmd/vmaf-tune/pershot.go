package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/vmafsink/vmafsink/tune"
)

func perShotUsage(w io.Writer) {
	fmt.Fprintf(w, `Usage: vmaf-tune per-shot -i SOURCE --encoder NAME --target VMAF [options]

Cuts the source into shots and finds, for each, the largest CRF whose
encode of that shot alone meets the target (as crf-search does). Prints
the plan (shots with their frames, CRF and predicted score), the ffmpeg
commands that encode it (one per shot, then a concat), and with --output
encodes the plan in-process, then decodes and scores the result whole.

Shot detection: %s.

  -i, --input FILE       the source
  --encoder NAME         FFmpeg encoder (known here: %s)
  --preset P             the encoder's preset
  --enc KEY=VALUE        a further encoder option (repeatable)
  --target VMAF          the score each shot must reach (default 95)
  --aggregate A          mean (default), harmonic_mean or pN
  --tolerance T          as crf-search (default 0.5)
  --cut-threshold D      the histogram distance above which frames are cut apart (default %g)
  --cut-ratio R          and above R times its median over the second before (default %g)
  --min-shot S           the shortest shot in seconds (default %g)
  -o, --output FILE      encode the plan into FILE (.ts, .264, .265 or .ivf: each shot carries its
                         own headers) and score it whole
  -m, --model SPEC       the VMAF model (default version=vmaf_v0.6.1)
  --threads N, --jobs N, --cache-dir DIR, --no-cache, --mcp-uds SOCK, --mcp-start-paused,
  -q, --json, --help: as crf-search
`, tune.DefaultShotDetection.Method(), strings.Join(tune.KnownEncoders(), ", "),
		tune.DefaultShotDetection.Threshold, tune.DefaultShotDetection.Ratio, tune.DefaultShotDetection.MinSeconds)
}

func runPerShot(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var (
		o   tune.PerShotOptions
		f   sessionFlags
		enc []string
		agg string
	)
	o.Target, o.Tolerance, o.Detection = 95, 0.5, tune.DefaultShotDetection
	err := parseOptions(args, append(f.options(),
		stringOpt(&o.Encoder.Name, "--encoder", "-e"),
		stringOpt(&o.Encoder.Preset, "--preset"),
		option{names: []string{"--enc"}, value: true, set: func(v string) error { enc = append(enc, v); return nil }},
		floatOpt(&o.Target, "--target"),
		stringOpt(&agg, "--aggregate"),
		floatOpt(&o.Tolerance, "--tolerance"),
		floatOpt(&o.Detection.Threshold, "--cut-threshold"),
		floatOpt(&o.Detection.Ratio, "--cut-ratio"),
		floatOpt(&o.Detection.MinSeconds, "--min-shot"),
		stringOpt(&o.Output, "-o", "--output"),
	), nil)
	if err == nil && !f.help {
		err = checkPerShotArgs(&o, &f.so, enc, agg)
	}
	if err != nil {
		return usageFailure(stderr, "per-shot", err)
	}
	if f.help {
		perShotUsage(stdout)
		return exitOK
	}
	return runInSession("per-shot", &f, stdout, stderr, func(s *tune.Session) (*tune.PerShotResult, error) { return s.PerShot(ctx, o) }, writePerShot)
}

func writePerShot(stdout io.Writer, r *tune.PerShotResult) {
	for _, sh := range r.Shots {
		fmt.Fprintf(stdout, "shot %d  frames %d-%d  crf %-6g predicted vmaf %7.3f  %9.1f kb/s\n",
			sh.Index, sh.StartFrame, sh.EndFrame-1, sh.CRF, sh.VMAF, sh.BitrateKbps)
	}
	fmt.Fprintf(stdout, "predicted: vmaf %.3f at %.1f kb/s, %d encodes\n", r.PredictedVMAF, r.PredictedBitrate, r.Encodes)
	if r.OutputVMAF != nil {
		fmt.Fprintf(stdout, "%s scored whole: vmaf %.3f at %.1f kb/s (target %g %s)\n", r.Output, *r.OutputVMAF, r.OutputBitrateKbps,
			r.Target, map[bool]string{true: "met", false: "missed"}[*r.TargetMet])
	}
	fmt.Fprintf(stdout, "\n# shots.txt:\n%s\n", r.ConcatList)
	for _, c := range r.Commands {
		fmt.Fprintln(stdout, strings.Join(quoteArgs(c), " "))
	}
}

func checkPerShotArgs(o *tune.PerShotOptions, so *tune.SessionOptions, enc []string, agg string) error {
	var err error
	switch {
	case so.Source == "":
		return usagef("no source (-i)")
	case o.Encoder.Name == "":
		return usagef("no --encoder")
	case o.Target <= 0 || o.Target > 100:
		return usagef("target %g: want a score above 0 and at most 100", o.Target)
	case !(o.Detection.Threshold > 0 && o.Detection.Threshold < 1):
		return usagef("--cut-threshold %g: want a distance between 0 and 1", o.Detection.Threshold)
	case o.Detection.Ratio < 0:
		return usagef("--cut-ratio must not be negative")
	case o.Detection.MinSeconds < 0:
		return usagef("--min-shot must not be negative")
	}
	if err := o.Encoder.Check(); err != nil {
		return usagef("%v", err)
	}
	if o.Encoder.Options, err = tune.ParseOptions(enc); err != nil {
		return usagef("%v", err)
	}
	if o.Aggregate, err = tune.ParseAggregate(agg); err != nil {
		return usagef("%v", err)
	}
	defaultJobs(so)
	return nil
}
