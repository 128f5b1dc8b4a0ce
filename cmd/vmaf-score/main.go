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
	if len(args) > 0 && subcommands[args[0]] != nil {
		return subcommands[args[0]](ctx, args[1:], stdout, stderr)
	}
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
	if s.scale == "auto" {
		w, h, err := s.probeReference()
		if err != nil {
			return err
		}
		s.resolveScale(w, h, func(msg string) {
			if !s.quiet {
				fmt.Fprintf(stderr, "vmaf-score: %s\n", msg)
			}
		})
	}
	if len(s.dists) > 1 {
		if s.tiny.noReference {
			return usagef("--no-reference scores one distorted input at a time: give one -d")
		}
		return scoreMany(ctx, s, stdout, stderr)
	}
	models, err := s.loadModels()
	if err != nil {
		return err
	}
	buffers := s.inputBuffers()
	if s.tiny.noReference {
		ref, dist, err := s.openNoReference(buffers)
		if err != nil {
			return err
		}
		defer ref.close()
		_, err = scoreOpened(ctx, s, models, ref, dist, buffers, stdout, stderr)
		return err
	}
	ref, err := s.openInput(s.ref, false, buffers)
	if err != nil {
		return fmt.Errorf("reference %w", err)
	}
	defer ref.close()
	_, err = scoreAgainst(ctx, s, models, ref, buffers, stdout, stderr)
	return err
}

// inputBuffers is how many frames each input is read into: the frames
// the engine has in flight (one per pair it takes at once) and one being
// read; openInput adds room for FFmpeg's decoding ahead.
func (s *settings) inputBuffers() int {
	buffers := enginePairs(s.threads) + 1
	if s.fps.num > 0 {
		// --fps holds the frame it repeats and reads one ahead.
		buffers += 2
	}
	return buffers
}

// scoreAgainst scores s.dist against the opened reference; the job it
// returns holds the pooled scores.
func scoreAgainst(ctx context.Context, s *settings, models []*vmaf.Model, ref source, buffers int, stdout, stderr io.Writer) (*job, error) {
	dist, err := s.openInput(s.dist, true, buffers)
	if err != nil {
		return nil, fmt.Errorf("distorted %w", err)
	}
	return scoreOpened(ctx, s, models, ref, dist, buffers, stdout, stderr)
}

// scoreOpened scores the opened inputs; the job it returns holds the
// pooled scores.
func scoreOpened(ctx context.Context, s *settings, models []*vmaf.Model, ref, dist source, buffers int, stdout, stderr io.Writer) (*job, error) {
	defer dist.close()
	var err error
	if ref, dist, err = conform(s, ref, dist, buffers); err != nil {
		return nil, err
	}
	warnings := s.inputWarnings(models, ref, dist)
	ref, dist = s.conformRates(ref, dist, buffers)
	if s.fps.num > 0 {
		defer ref.close()
		defer dist.close()
	}

	if s.threads > 0 {
		s.features = dropUnfitMSSSIM(s.features, ref.format(), stderr)
	}

	syncNote, err := s.applySync(buffers)
	if err != nil {
		return nil, err
	}

	j := &job{s: s, models: models, stdout: stdout, stderr: stderr, ref: ref, dist: dist}
	j.noteConformed()
	j.watchOffset()
	if syncNote != "" {
		j.note(syncNote)
	}
	for _, w := range warnings {
		j.warn(w)
	}
	closeOut, err := j.prepare(ref.format(), nil)
	if err != nil {
		return nil, err
	}
	defer closeOut()
	if j.out != nil {
		for _, w := range j.warnings {
			j.out.AddWarning(w)
		}
		for _, n := range j.notes {
			j.out.AddNote(n)
		}
	}
	if s.shard != nil {
		return j, j.runShard(ctx)
	}
	return j, j.run(ctx)
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
	if s.scale != "" {
		return ref, dist, scaleBoth(s, ref, dist)
	}
	rf, df := ref.format(), dist.format()
	cv, isFF := dist.(converter)
	if rf.Width != df.Width || rf.Height != df.Height {
		if !isFF || s.scaleDist == "" {
			return ref, dist, fmt.Errorf("dimensions do not match: reference %dx%d, distorted %dx%d (%s)",
				rf.Width, rf.Height, df.Width, df.Height, sizeFix(rf, df))
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
