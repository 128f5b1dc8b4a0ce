// Command vmaf-tune finds encoder settings by measuring them: the largest
// CRF whose encode meets a VMAF target (crf-search), and the BD-rate
// between two rate-quality curves (bd-rate). Probes are encoded with
// FFmpeg's libraries in-process and scored by the vmaf engine as their
// packets leave the encoder; the source is decoded once per run.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/asticode/go-astiav"

	"github.com/vmafsink/vmafsink/internal/version"
)

func main() {
	// Encoders' own errors (a bad option) still show; their statistics
	// do not.
	astiav.SetLogLevel(astiav.LogLevelError)
	// SVT-AV1 writes its banner to stderr unless told its level (1:
	// errors only).
	if os.Getenv("SVT_LOG") == "" {
		os.Setenv("SVT_LOG", "1")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit statuses, vmaf-score's.
const (
	exitOK          = 0
	exitUsage       = 1   // a bad command line
	exitError       = 255 // bad input, or a failure while encoding or scoring
	exitInterrupted = 130 // stopped by a signal
)

func usage(w io.Writer) {
	fmt.Fprint(w, `Usage: vmaf-tune COMMAND [options]

Commands:
  crf-search   the largest CRF whose encode meets a VMAF target
  bd-rate      the BD-rate between two rate-quality curves
  compare      encoders ranked at VMAF targets, with BD-rates against the first
  ladder       a bitrate ladder: resolutions × CRFs, convex hull, rungs, HLS and DASH manifests
  per-shot     a CRF per shot to meet a target, the plan, its ffmpeg commands, and its encode
  mcp          serve these to MCP clients on stdio

vmaf-tune COMMAND --help describes each. --version prints the version.
`)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "--help", "-h", "help":
		usage(stdout)
		return exitOK
	case "--version":
		fmt.Fprintf(stdout, "vmaf-tune %s\n", version.String())
		return exitOK
	case "bd-rate":
		return runBDRate(args[1:], stdout, stderr)
	case "crf-search":
		return runCRFSearch(ctx, args[1:], stdout, stderr)
	case "compare":
		return runCompare(ctx, args[1:], stdout, stderr)
	case "per-shot":
		return runPerShot(ctx, args[1:], stdout, stderr)
	case "ladder":
		return runLadder(ctx, args[1:], stdout, stderr)
	case "mcp":
		return runMCP(ctx, args[1:], stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "vmaf-tune: unknown command %q (see vmaf-tune --help)\n", args[0])
	return exitUsage
}

// usageFailure reports a bad command line.
func usageFailure(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "vmaf-tune %s: %v (see vmaf-tune %s --help)\n", cmd, err, cmd)
	return exitUsage
}

// failure reports a failed run, with the interrupted status when a
// signal stopped it.
func failure(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "vmaf-tune: %v\n", err)
	if errors.Is(err, context.Canceled) {
		return exitInterrupted
	}
	return exitError
}
