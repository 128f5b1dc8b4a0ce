//go:build lazyffmpeg

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// This build links no FFmpeg: loading FFmpeg's libraries (over two hundred
// on Debian) costs a tenth of a second and tens of MiB of resident memory
// at every start, whatever the input. It reads .y4m and raw .yuv itself
// and hands any run that needs FFmpeg, before reading anything, to the
// build that links it, installed beside it as vmaf-score-ffmpeg.

// ffmpegBuild is the name of the build that links FFmpeg.
const ffmpegBuild = "vmaf-score-ffmpeg"

// handOff replaces this process with vmaf-score-ffmpeg, given the same
// arguments, when an input needs FFmpeg; it returns only when none does
// or the hand-off fails.
func (s *settings) handOff() error {
	var needs string
	if s.kindOf(s.ref, false) == readFFmpeg {
		needs = "reference " + s.ref
	}
	for _, d := range append([]string{s.dist}, s.dists...) {
		if needs == "" && s.kindOf(d, true) == readFFmpeg {
			needs = "distorted " + d
		}
	}
	if needs == "" {
		return nil
	}
	path, err := findFFmpegBuild()
	if err != nil {
		return fmt.Errorf("%s needs FFmpeg: %w (this vmaf-score reads .y4m and raw .yuv itself)", needs, err)
	}
	argv := append([]string{ffmpegBuild}, os.Args[1:]...)
	if err := syscall.Exec(path, argv, os.Environ()); err != nil {
		return fmt.Errorf("%s needs FFmpeg: starting %s: %w", needs, path, err)
	}
	return nil // not reached: Exec returns only on failure
}

// findFFmpegBuild looks beside this executable (symbolic links resolved),
// then on PATH.
func findFFmpegBuild() (string, error) {
	if self, err := os.Executable(); err == nil {
		if self, err = filepath.EvalSymlinks(self); err == nil {
			p := filepath.Join(filepath.Dir(self), ffmpegBuild)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
				return p, nil
			}
		}
	}
	p, err := exec.LookPath(ffmpegBuild)
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("%s is neither beside this executable nor on PATH", ffmpegBuild)
		}
		return "", err
	}
	return p, nil
}

// checkScaleAlgorithm leaves the name to vmaf-score-ffmpeg, which every
// run with --scale-dist is handed to.
func checkScaleAlgorithm(string) error { return nil }

// checkFilterSyntax is left to the build that links FFmpeg.
func checkFilterSyntax(string) error { return nil }

// openFFmpeg is not reached: handOff has passed on every run that needs it.
func (s *settings) openFFmpeg(path string, _ bool, _ int) (source, error) {
	return nil, fmt.Errorf("%s: this vmaf-score build does not decode with FFmpeg", path)
}
