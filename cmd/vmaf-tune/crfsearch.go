package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/vmafsink/vmafsink/tune"
)

func crfSearchUsage(w io.Writer) {
	fmt.Fprintf(w, `Usage: vmaf-tune crf-search -i SOURCE --encoder NAME --target VMAF [options]

Finds the largest CRF whose encode of SOURCE scores at least --target: a
first guess, a step along the expected slope until the target is
bracketed, then guesses interpolated on the measured curve (linear, then
monotone cubic). SOURCE is decoded once; each probe is encoded in memory
and its frames scored as they leave the encoder. No file is written except
--output.

  -i, --input FILE      the source (any file FFmpeg reads)
  --encoder NAME        FFmpeg encoder (known here: %s)
  --preset P            the encoder's preset (cpu-used for libaom-av1 and libvpx-vp9)
  --enc KEY=VALUE       a further encoder option, as ffmpeg's -KEY VALUE (repeatable)
  --target VMAF         the score to reach (default 95)
  --aggregate A         mean (default), harmonic_mean, or pN: the N-th percentile of frames
  --tolerance T         stop at a passing probe within T above the target (default 0.5)
  --min-crf, --max-crf  the CRF range (default: the encoder's, e.g. 10 to 51 for libx264)
  --crf-step S          the CRF grid (default 0.25 for libx264/libx265, 1 for the others)
  --max-encodes N       stop after N probes (default 10)
  -m, --model SPEC      the VMAF model, as vmaf-score's -m (default version=vmaf_v0.6.1)
  --samples N           score N evenly spaced cuts of the source instead of all of it
  --sample-seconds S    each cut's length (default 2)
  --full-check          with --samples: encode and score the whole source at the answer
  -o, --output FILE     keep the winning encode (container from the name: .mp4, .mkv, ...)
  --threads N           scoring threads of each probe (default: the CPUs shared among --jobs)
  --jobs N              independent probes run at once (default: one per 4 CPUs, at least 1);
                        a search's probes depend on each other and run one after another, a
                        compare's encoders, a ladder's grid and resolutions and a plan's shots
                        run side by side; the answers are the same
  --cache-dir DIR       where probe results are kept (default $XDG_CACHE_HOME/vmaf-tune)
  --no-cache            neither read nor write the cache
  --mcp-uds SOCK        serve the control plane (vmafctl, MCP) on this Unix socket while the
                        sweep runs: vmaf_status names the probe being scored, vmaf_score gives
                        its frames' scores and features, vmaf_pause holds the sweep
  --mcp-start-paused    with --mcp-uds: wait, paused before the first frame, for a client's resume
  --json                print the result as JSON
  -q, --quiet           no progress on stderr
  --help                print this help and exit

Exit status: 0 found; 1 bad command line; 255 failure, or a target the
lowest CRF does not reach; 130 interrupted.
`, strings.Join(tune.KnownEncoders(), ", "))
}

// crfSearchArgs is crf-search's command line.
type crfSearchArgs struct {
	o   tune.CRFSearchOptions
	f   sessionFlags
	enc []string
	agg string
}

func parseCRFSearch(args []string) (*crfSearchArgs, error) {
	a := &crfSearchArgs{o: tune.CRFSearchOptions{Target: 95, Tolerance: 0.5, MaxEncodes: 10, SampleSeconds: 2}}
	err := parseOptions(args, append(a.f.options(),
		stringOpt(&a.o.Encoder.Name, "--encoder", "-e"),
		stringOpt(&a.o.Encoder.Preset, "--preset"),
		option{names: []string{"--enc"}, value: true, set: func(v string) error { a.enc = append(a.enc, v); return nil }},
		floatOpt(&a.o.Target, "--target"),
		stringOpt(&a.agg, "--aggregate"),
		floatOpt(&a.o.Tolerance, "--tolerance"),
		floatOpt(&a.o.MinCRF, "--min-crf"),
		floatOpt(&a.o.MaxCRF, "--max-crf"),
		floatOpt(&a.o.Step, "--crf-step"),
		intOpt(&a.o.MaxEncodes, 1, 100, "--max-encodes"),
		intOpt(&a.o.Samples, 0, 1000, "--samples"),
		floatOpt(&a.o.SampleSeconds, "--sample-seconds"),
		flagOpt(&a.o.FullCheck, "--full-check"),
		stringOpt(&a.o.Output, "-o", "--output"),
	), nil)
	if err != nil || a.f.help {
		return a, err
	}
	if a.o.Aggregate, err = tune.ParseAggregate(a.agg); err != nil {
		return a, usagef("%v", err)
	}
	if a.o.Encoder.Options, err = tune.ParseOptions(a.enc); err != nil {
		return a, usagef("%v", err)
	}
	if a.o.Encoder.Name == "" {
		return a, usagef("no --encoder")
	}
	defaultJobs(&a.f.so)
	a.o.Source = a.f.so.Source
	if err := a.o.Check(); err != nil {
		return a, usagef("%v", err)
	}
	return a, nil
}

// openCache opens the cache a command line asks for (nil: none).
func openCache(dir string, off bool) (*tune.Cache, error) {
	if off {
		return nil, nil
	}
	if dir == "" {
		d, err := tune.DefaultCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no cache directory (%v); give --cache-dir or --no-cache", err)
		}
		dir = d
	}
	return tune.OpenCache(dir)
}

func runCRFSearch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	a, err := parseCRFSearch(args)
	if err != nil {
		return usageFailure(stderr, "crf-search", err)
	}
	if a.f.help {
		crfSearchUsage(stdout)
		return exitOK
	}
	return runInSession("crf-search", &a.f, stdout, stderr, func(s *tune.Session) (*tune.CRFResult, error) { return s.CRFSearch(ctx, a.o) }, writeCRFResult)
}

func writeCRFResult(w io.Writer, r *tune.CRFResult) {
	fmt.Fprintf(w, "crf %g  vmaf %.3f (%s)  %.1f kb/s  predicted size %.2f MB  %d encodes",
		r.CRF, r.VMAF, r.Aggregate, r.BitrateKbps, float64(r.PredictedSizeBytes)/1e6, r.Encodes)
	if r.CacheHits > 0 {
		fmt.Fprintf(w, " (%d from the cache)", r.CacheHits)
	}
	fmt.Fprintln(w)
	if r.Bounded {
		fmt.Fprintf(w, "the target is met even at the highest CRF searched\n")
	}
	if r.FullCheck != nil {
		fmt.Fprintf(w, "whole source at crf %g: vmaf %.3f, %.1f kb/s\n", r.CRF, r.FullCheck.VMAF, r.FullCheck.BitrateKbps)
	}
	fmt.Fprintf(w, "ffmpeg -i SOURCE %s OUTPUT\n", strings.Join(quoteArgs(r.FFmpegArgs), " "))
}

// quoteArgs quotes the arguments a shell would split.
func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`;&|<>*?()[]{}!#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return out
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
