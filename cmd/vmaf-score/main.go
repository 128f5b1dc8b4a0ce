// Command vmaf-score scores a distorted video against its reference with
// VMAF. It takes libvmaf's vmaf tool's options and writes its output
// formats, so scripts written for that tool keep working; besides .y4m
// and raw .yuv it reads anything FFmpeg decodes.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"syscall"

	"github.com/vmafsink/vmafsink/internal/version"
	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit statuses, libvmaf's tool's: 1 for a command line it refuses, 255
// (its -1) for any later failure.
const (
	exitOK          = 0
	exitUsage       = 1   // a bad command line
	exitError       = 255 // bad input, or a failure while scoring
	exitInterrupted = 130 // stopped by a signal; the output holds the frames scored
)

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "mcp" {
		// libvmaf's tool takes no bare arguments, so the word cannot
		// mean anything else there.
		return runMCPFiles(ctx, args[1:], os.Stdin, stdout, stderr)
	}
	s, err := parseArgs(args)
	if err == nil && !s.help && !s.version && !s.listFeatures {
		err = s.check()
	}
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "vmaf-score: %v (see --help)\n", err)
		return exitUsage
	case s.help:
		writeUsage(stdout)
		return exitOK
	case s.listFeatures:
		writeExtractors(stdout)
		return exitOK
	case s.version:
		fmt.Fprintf(stdout, "vmaf-score %s (libvmaf %s output)\n", version.String(), report.DefaultVersion)
		return exitOK
	}
	if err := s.handOff(); err != nil {
		fmt.Fprintf(stderr, "vmaf-score: %v\n", err)
		return exitError
	}
	err = score(ctx, s, stdout, stderr)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errInterrupted):
		fmt.Fprintf(stderr, "vmaf-score: %v\n", err)
		return exitInterrupted
	}
	fmt.Fprintf(stderr, "vmaf-score: %v\n", err)
	return exitError
}

func score(ctx context.Context, s *settings, stdout, stderr io.Writer) error {
	vmaf.SetCPUMask(uint64(s.cpuMask))
	models, err := s.loadModels()
	if err != nil {
		return err
	}
	// Each input holds the frames the engine has in flight (one per
	// pair it takes at once) and one being read; openInput adds room for
	// FFmpeg's decoding ahead.
	buffers := enginePairs(s.threads) + 1
	var ref, dist source
	if s.tiny.noReference {
		if ref, dist, err = s.openNoReference(buffers); err != nil {
			return err
		}
		defer ref.close()
	} else {
		if ref, err = s.openInput(s.ref, false, buffers); err != nil {
			return fmt.Errorf("reference %w", err)
		}
		defer ref.close()
		if dist, err = s.openInput(s.dist, true, buffers); err != nil {
			return fmt.Errorf("distorted %w", err)
		}
	}
	defer dist.close()
	if ref, dist, err = conform(s, ref, dist, buffers); err != nil {
		return err
	}

	if s.threads > 0 {
		s.features = dropUnfitMSSSIM(s.features, ref.format(), stderr)
	}

	j := &job{s: s, models: models, stdout: stdout, stderr: stderr, ref: ref, dist: dist}
	if s.plot != "" {
		j.plot = newPlotData()
		j.results.plot = j.plot
	}
	switch {
	case s.noPrediction && len(s.models) == 0 && len(s.features) > 0 && !s.useRunner():
		// libvmaf's tool then loads no model at all and extracts only
		// the --feature metrics; so does the engine.
		j.models = nil
	case s.noPrediction && len(s.models) == 0:
		// A measurement an agent steers needs a model to swap; its
		// outputs and features are left out.
		hide, err := notExtraFeature(s.features)
		if err != nil {
			return err
		}
		j.results.hide = hide
	case s.noPrediction:
		j.results.hide = modelOutputs(models)
	}
	if s.output != "" {
		f := ref.format()
		opts := s.reportOptions(report.Options{Format: s.format, Width: f.Width, Height: f.Height})
		switch {
		case s.output == "-":
			j.out = report.NewWriter(stdout, opts)
		case isStream(s.output):
			// A pipe or terminal (/dev/stdout, a FIFO) cannot be
			// rewritten in place: the document goes out whole at the
			// end, as libvmaf writes it.
			if j.outFile, err = os.OpenFile(s.output, os.O_WRONLY, 0); err != nil {
				return fmt.Errorf("output: %w", err)
			}
			defer j.outFile.Close()
			j.out = report.NewWriter(j.outFile, opts)
		default:
			if j.out, err = report.Create(s.output, opts); err != nil {
				return err
			}
		}
		j.results.out = j.out
	}
	return j.run(ctx)
}

// dropUnfitMSSSIM leaves float_ms_ssim out of features when the pictures
// are too small for it, as libvmaf's tool does with --threads: there its
// extractor fails on every frame, and the frames and pooled metrics go on
// without it. (Without --threads the failure ends libvmaf's run, as it
// ends ours.)
func dropUnfitMSSSIM(features []string, f picFormat, stderr io.Writer) []string {
	if msssimFits(f.Width, f.Height) || !slices.Contains(features, "float_ms_ssim") {
		return features
	}
	fmt.Fprintf(stderr, "vmaf-score: float_ms_ssim left out: %dx%d is below its 176x176 minimum\n", f.Width, f.Height)
	return slices.DeleteFunc(slices.Clone(features), func(name string) bool { return name == "float_ms_ssim" })
}

// msssimFits is libvmaf's float_ms_ssim size check: each of its five
// scales, halving the picture, must hold the 11-sample SSIM window.
func msssimFits(w, h int) bool {
	for i := 0; i < 5; i++ {
		if w < 11 || h < 11 {
			return false
		}
		w, h = w/2, h/2
	}
	return true
}

// isStream reports whether path names something other than a regular
// file or directory, such as a pipe or a terminal.
func isStream(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.Mode().IsRegular() && !st.IsDir()
}

// conform checks the inputs can be scored together, converting the
// distorted input to the reference's format when FFmpeg decodes it, or the
// shallower input to the deeper one's bit depth when a preset asks for a
// common bit depth.
func conform(s *settings, ref, dist source, buffers int) (source, source, error) {
	rf, df := ref.format(), dist.format()
	cv, isFF := dist.(converter)
	if rf.Width != df.Width || rf.Height != df.Height {
		if !isFF || s.scaleDist == "" {
			return ref, dist, fmt.Errorf("dimensions do not match: reference %dx%d, distorted %dx%d (use --scale-dist ALGO to scale the distorted video)",
				rf.Width, rf.Height, df.Width, df.Height)
		}
	}
	if rf == df {
		return ref, dist, nil
	}
	if s.commonBitDepth && rf.BitDepth != df.BitDepth && rf.Chroma == df.Chroma && rf.Width == df.Width && rf.Height == df.Height {
		var err error
		if rf.BitDepth < df.BitDepth {
			ref, err = newDeepened(ref, df.BitDepth, buffers)
		} else {
			dist, err = newDeepened(dist, rf.BitDepth, buffers)
		}
		return ref, dist, err
	}
	if !isFF {
		return ref, dist, fmt.Errorf("formats do not match: reference %s, distorted %s", rf, df)
	}
	return ref, dist, cv.convertTo(rf, s.scaleDist)
}

// converter is a source that can deliver its pictures in another format
// (an FFmpeg input).
type converter interface {
	convertTo(f picFormat, scale string) error
}
