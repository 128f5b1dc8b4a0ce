package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"

	"github.com/vmafsink/vmafsink/tune"
)

// sessionFlags are the options of the commands that measure a source in
// a session (compare, ladder, per-shot).
type sessionFlags struct {
	so                           tune.SessionOptions
	cacheDir                     string
	mcpSocket                    string
	noCache, asJSON, quiet, help bool
	mcpStartPaused               bool
}

func (f *sessionFlags) options() []option {
	return []option{
		stringOpt(&f.so.Source, "-i", "--input"),
		stringOpt(&f.so.Model, "-m", "--model"),
		intOpt(&f.so.Threads, 0, 256, "--threads"),
		intOpt(&f.so.Jobs, 0, 64, "--jobs"),
		stringOpt(&f.cacheDir, "--cache-dir"),
		stringOpt(&f.mcpSocket, "--mcp-uds"),
		flagOpt(&f.mcpStartPaused, "--mcp-start-paused"),
		flagOpt(&f.noCache, "--no-cache"),
		flagOpt(&f.asJSON, "--json"),
		flagOpt(&f.quiet, "-q", "--quiet"),
		flagOpt(&f.help, "--help", "-h"),
	}
}

// defaultJobs fills in --jobs and --threads left out: probes at once from
// the CPUs (tune.DefaultJobs), and the CPUs shared among them for scoring.
func defaultJobs(so *tune.SessionOptions) {
	if so.Jobs == 0 {
		so.Jobs = tune.DefaultJobs()
	}
	if so.Threads == 0 {
		so.Threads = max(1, runtime.NumCPU()/so.Jobs)
	}
}

// runInSession opens the cache and the source, serves the control plane
// with --mcp-uds, runs job (command) in the session, and prints its
// result: as JSON with --json, otherwise with text.
func runInSession[R any](command string, f *sessionFlags, stdout, stderr io.Writer, job func(*tune.Session) (R, error), text func(io.Writer, R)) int {
	if f.mcpStartPaused && f.mcpSocket == "" {
		return usageFailure(stderr, command, usagef("--mcp-start-paused needs --mcp-uds"))
	}
	var err error
	if f.so.Cache, err = openCache(f.cacheDir, f.noCache); err != nil {
		return failure(stderr, err)
	}
	if !f.quiet && isTerminal(stderr) {
		f.so.OnProbe = newProgress(stderr).probe
	}
	s, err := tune.OpenSession(f.so)
	if err != nil {
		return failure(stderr, err)
	}
	defer s.Close()
	if f.mcpSocket != "" {
		stop, err := startSweepControl(s, f, command)
		if err != nil {
			return failure(stderr, err)
		}
		defer stop()
	}
	r, err := job(s)
	if err != nil {
		return failure(stderr, err)
	}
	if f.asJSON {
		b, _ := json.MarshalIndent(r, "", "  ")
		fmt.Fprintf(stdout, "%s\n", b)
		return exitOK
	}
	text(stdout, r)
	return exitOK
}
