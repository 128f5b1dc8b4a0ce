package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/vmafsink/vmafsink/internal/ffsource"
	"github.com/vmafsink/vmafsink/tune"
)

func ladderUsage(w io.Writer) {
	fmt.Fprintf(w, `Usage: vmaf-tune ladder -i SOURCE --encoder NAME [options]

Builds a bitrate ladder as per-title encoding does: every resolution is
encoded at every CRF of a sweep (or searched to each --targets score),
scaled down with --downscale before encoding and scored after scaling back
to the source's size with --upscale; the upper convex hull of (bitrate,
VMAF) over all encodes is kept, and rungs are chosen on it, evenly spaced
in log bitrate (or in VMAF). Bitrates come from the encodes' sizes and
the source's duration; CODECS in the manifests from the encodes' headers.

  -i, --input FILE        the source
  --encoder NAME          FFmpeg encoder (known here: %s)
  --preset P              the encoder's preset
  --enc KEY=VALUE         a further encoder option (repeatable)
  --resolutions LIST      e.g. 1920x1080,1280x720,640x360 (default: the source's size and halves
                          down to 360 lines)
  --crfs LIST             the CRF sweep (default: five CRFs over the encoder's usual range)
  --targets LIST          instead of a sweep: search each resolution to each VMAF target
  --downscale ALGO        swscale filter for downscaling (default lanczos)
  --upscale ALGO          swscale filter for scaling back before scoring (default bicubic)
  --rungs N               rungs on the hull (default 4)
  --spacing bitrate|vmaf  rungs evenly in log bitrate (default) or in VMAF
  --aggregate A           mean (default), harmonic_mean or pN
  -m, --model SPEC        the VMAF model (default version=vmaf_v0.6.1)
  --hls FILE              write the HLS master playlist
  --dash FILE             write the DASH MPD
  --threads N, --jobs N, --cache-dir DIR, --no-cache, --mcp-uds SOCK, --mcp-start-paused,
  -q, --json, --help: as crf-search
`, strings.Join(tune.KnownEncoders(), ", "))
}

func parseFloats(s, name string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, usagef("%s: %q is not a number", name, f)
		}
		out = append(out, v)
	}
	return out, nil
}

func runLadder(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var (
		o                       tune.LadderOptions
		f                       sessionFlags
		enc                     []string
		res, crfs, targets, agg string
		hls, dash               string
	)
	err := parseOptions(args, append(f.options(),
		stringOpt(&o.Encoder.Name, "--encoder", "-e"),
		stringOpt(&o.Encoder.Preset, "--preset"),
		option{names: []string{"--enc"}, value: true, set: func(v string) error { enc = append(enc, v); return nil }},
		stringOpt(&res, "--resolutions"),
		stringOpt(&crfs, "--crfs"),
		stringOpt(&targets, "--targets"),
		stringOpt(&o.Down, "--downscale"),
		stringOpt(&o.Up, "--upscale"),
		intOpt(&o.Rungs, 1, 32, "--rungs"),
		stringOpt(&o.Spacing, "--spacing"),
		stringOpt(&agg, "--aggregate"),
		stringOpt(&hls, "--hls"),
		stringOpt(&dash, "--dash"),
	), nil)
	if err == nil && !f.help {
		err = checkLadderArgs(&o, &f.so, enc, res, crfs, targets, agg)
	}
	if err != nil {
		return usageFailure(stderr, "ladder", err)
	}
	if f.help {
		ladderUsage(stdout)
		return exitOK
	}
	return runInSession("ladder", &f, stdout, stderr, func(s *tune.Session) (*tune.LadderResult, error) {
		l, err := s.Ladder(ctx, o)
		if err != nil {
			return nil, err
		}
		for path, text := range map[string]string{hls: l.HLS, dash: l.DASH} {
			if path != "" {
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					return nil, err
				}
			}
		}
		return l, nil
	}, writeLadder)
}

func writeLadder(stdout io.Writer, l *tune.LadderResult) {
	fmt.Fprintf(stdout, "%d encodes (%d from the cache); hull of %d, rungs:\n", l.Encodes, l.CacheHits, len(l.Hull))
	for _, r := range l.Rungs {
		fmt.Fprintf(stdout, "  %-10s crf %-6g %9.1f kb/s  vmaf %7.3f  %s\n", r.Resolution, r.CRF, r.BitrateKbps, r.VMAF, r.Codec)
	}
}

func checkLadderArgs(o *tune.LadderOptions, so *tune.SessionOptions, enc []string, res, crfs, targets, agg string) error {
	var err error
	if so.Source == "" {
		return usagef("no source (-i)")
	}
	if o.Encoder.Name == "" {
		return usagef("no --encoder")
	}
	if err := o.Encoder.Check(); err != nil {
		return usagef("%v", err)
	}
	if o.Encoder.Options, err = tune.ParseOptions(enc); err != nil {
		return usagef("%v", err)
	}
	if res != "" {
		if o.Resolutions, err = tune.ParseResolutions(res); err != nil {
			return usagef("%v", err)
		}
	}
	if crfs != "" && targets != "" {
		return usagef("give --crfs or --targets, not both")
	}
	if crfs != "" {
		if o.CRFs, err = parseFloats(crfs, "--crfs"); err != nil {
			return err
		}
	}
	if targets != "" {
		if o.Targets, err = parseFloats(targets, "--targets"); err != nil {
			return err
		}
		o.Tolerance = 0.5
	}
	for _, f := range []string{o.Down, o.Up} {
		if f != "" {
			if _, err := ffsource.ParseScaleAlgorithm(f); err != nil {
				return usagef("%v (known: %s)", err, strings.Join(ffsource.ScaleAlgorithms(), ", "))
			}
		}
	}
	if o.Spacing != "" && o.Spacing != "bitrate" && o.Spacing != "vmaf" {
		return usagef("--spacing %q: want bitrate or vmaf", o.Spacing)
	}
	if o.Aggregate, err = tune.ParseAggregate(agg); err != nil {
		return usagef("%v", err)
	}
	defaultJobs(so)
	return nil
}
