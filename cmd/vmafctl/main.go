// Command vmafctl talks to a running vmafsink (or vmaf-score) through its
// MCP control socket: read the status and live scores, swap the model,
// pause and resume.
//
//	vmafctl -s SOCK status | features | score [-n N] [-worst N] |
//	        swap MODEL [-name NAME] [-wait] | pause [-wait] | resume [-wait] |
//	        models | extractors | watch [-n N] | plot -o FILE [-n N] |
//	        worst [-n N] [-images KIND] -o DIR | stdio |
//	        health | wait-alert [-timeout D]
//
// Every command takes -json for machine-readable output. Exit codes: 0
// done; 1 other error; 2 usage; 3 cannot reach the socket; 4 request
// refused (unknown, invalid or unsupported model, path not allowed, bad
// argument), or the connection refused (peer not allowed, client limit),
// with the server's reason; 5 queue full or server busy (retry later); 6 timed out
// waiting; 7 the stream has finished.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/vmafsink/vmafsink/internal/version"
)

// Exit codes a shell script can branch on.
const (
	exitOK       = 0
	exitError    = 1
	exitUsage    = 2
	exitConnect  = 3
	exitRefused  = 4
	exitBusy     = 5
	exitTimeout  = 6
	exitFinished = 7
)

const usage = `usage: vmafctl [-s SOCKET] [-json] [-timeout D] [-server-uid UID] COMMAND [ARGS]
       vmafctl -version
       vmafctl help [COMMAND]       (or COMMAND -h) a command's flags

commands:
  status                      state, model, counters, swap history, warnings
  features                    active feature extractors and extra-metric requests
  score [-n N] [-worst N]     latest N per-frame records, the N worst, pooled stats
  swap MODEL [-name NAME] [-wait]
                              swap the model at the next frame boundary
  pause [-wait]               pause scoring at the next frame boundary
  resume [-wait]              resume scoring
  models                      models a swap may name
  extractors                  every feature extractor, its outputs and options
  watch [-n N]                stream per-frame scores live, with a sparkline of
                              the last 40 scaled to their min-max
  plot [RESULTS.json] -o FILE.svg|.png [-n N] [-worst N]
                              draw every frame's score the control plane keeps
                              (the whole run, or the last N scored frames): a line
                              per model, its mean over them, swaps, frames not
                              scored, the alert threshold, the drops below it
                              shaded, and the N worst labelled (default 5)
  worst [-n N] [-images all|distorted|none] [-max-width W] -o DIR
                              save the N worst frames so far (default 8) as
                              DIR/frame-NNNNNN-KIND.png and list them
  worst RESULTS.json [-n N] [-model KEY]
                              list a results file's N worst frames, no socket
  health                      health verdict (healthy, warning, critical, no_data)
                              with its reasons and evidence
  wait-alert [-timeout D]     block until a quality drop begins (exit 0, the drop
                              printed), the stream ends (7) or D passes (6)
  stdio                       bridge stdin/stdout to the socket, for MCP hosts
                              that start servers as subprocesses; ends (status 0)
                              when either side closes

The socket defaults to $VMAF_SOCKET. Every command accepts -json. The server
must run as this user or root (checked with SO_PEERCRED), or own the socket in a
directory no one else can rename files in; -server-uid names another user.
exit codes: 0 ok, 1 error, 2 usage, 3 cannot connect, 4 refused,
            5 queue full or busy, 6 timed out, 7 stream finished
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// globals are the options before the command.
type globals struct {
	socket  string
	json    bool
	timeout time.Duration
	// serverUID, when not -1, is a uid besides this user's and root's
	// the server may run as (see checkServer).
	serverUID int
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vmafctl", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	var g globals
	fs.StringVar(&g.socket, "s", os.Getenv("VMAF_SOCKET"), "control socket path")
	fs.BoolVar(&g.json, "json", false, "print JSON")
	fs.DurationVar(&g.timeout, "timeout", 30*time.Second, "how long a command (or -wait) may take")
	fs.IntVar(&g.serverUID, "server-uid", -1, "uid the server runs as, when not this user or root")
	showVersion := fs.Bool("version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *showVersion {
		fmt.Fprintf(stdout, "vmafctl %s\n", version.String())
		return exitOK
	}
	if fs.NArg() == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	if fs.Arg(0) == "help" {
		if fs.NArg() == 1 {
			fmt.Fprint(stdout, usage)
			return exitOK
		}
		return helpFor(ctx, fs.Arg(1), stdout, stderr)
	}
	if _, ok := commands[fs.Arg(0)]; ok && wantsHelp(fs.Args()[1:]) {
		return helpFor(ctx, fs.Arg(0), stdout, stderr)
	}
	cmd, ok := commands[fs.Arg(0)]
	if !ok {
		fmt.Fprintf(stderr, "vmafctl: unknown command %q\n\n%s", fs.Arg(0), usage)
		return exitUsage
	}
	if g.socket == "" && !offlineCommand(fs.Args()) {
		fmt.Fprintln(stderr, "vmafctl: no socket: give -s SOCKET or set VMAF_SOCKET")
		return exitUsage
	}
	return cmd(ctx, g, fs.Args()[1:], stdout, stderr)
}

// command runs one subcommand with its own arguments.
type command func(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int

var commands map[string]command

func init() {
	commands = map[string]command{
		"status":     cmdStatus,
		"features":   cmdFeatures,
		"score":      cmdScore,
		"swap":       cmdSwap,
		"pause":      cmdCommand("vmaf_pause"),
		"resume":     cmdCommand("vmaf_resume"),
		"models":     cmdModels,
		"extractors": cmdExtractors,
		"plot":       cmdPlot,
		"watch":      cmdWatch,
		"stdio":      cmdStdio,
		"wait-alert": cmdWaitAlert,
		"health":     cmdHealth,
		"worst":      cmdWorst,
	}
}
