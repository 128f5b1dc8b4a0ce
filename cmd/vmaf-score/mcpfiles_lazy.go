//go:build lazyffmpeg

package main

import (
	"fmt"
	"os"
	"syscall"
)

// mcpHandOff passes `vmaf-score mcp` to vmaf-score-ffmpeg when it is
// installed: a call may name any input, and the server cannot hand a
// single call on the way a command-line run is. Without it this build
// serves .y4m and raw .yuv, and a call needing FFmpeg gets an error
// saying so.
func mcpHandOff() error {
	path, err := findFFmpegBuild()
	if err != nil {
		fmt.Fprintf(os.Stderr, "vmaf-score: mcp: serving .y4m and raw .yuv only: %v\n", err)
		return nil
	}
	argv := append([]string{ffmpegBuild}, os.Args[1:]...)
	if err := syscall.Exec(path, argv, os.Environ()); err != nil {
		return fmt.Errorf("starting %s: %w", path, err)
	}
	return nil // not reached: Exec returns only on failure
}
