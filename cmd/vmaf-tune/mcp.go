package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/internal/mcpfiles"
	"github.com/vmafsink/vmafsink/internal/version"
	"github.com/vmafsink/vmafsink/swap"
	"github.com/vmafsink/vmafsink/tune"
)

// `vmaf-tune mcp` serves the sweeps to MCP clients on stdio: a server of
// its own rather than more tools on `vmaf-score mcp`, so the file scorer
// stays a small program without encoders linked and a client that only
// scores never starts an encode. It reads only files under the --allow
// directories and writes encodes only into its output directory.

// mcpConfig is the `mcp` subcommand's command line.
type mcpConfig struct {
	allow     []string
	outputDir string
	jobs      int
	threads   int
	cacheDir  string
	noCache   bool
	help      bool
}

// Bounds on the subcommand's options.
const (
	maxMCPJobs    = 8
	maxMCPThreads = 256
)

func mcpUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: vmaf-tune mcp --allow DIR [--allow DIR]... [options]

Serves MCP on standard input and output with the tools crf_search,
run_compare, run_ladder, run_tune_per_shot and bd_rate, which do what
vmaf-tune crf-search, compare, ladder, per-shot and bd-rate do. It
reads only files inside the --allow directories (symbolic links resolved)
and writes encodes only into the output directory.

  --allow DIR         a directory whose videos, model files and point files may be read (repeatable)
  --output-dir DIR    where encodes asked for with output go (default: a new directory under $TMPDIR,
                      removed at exit if left empty)
  --jobs N            searches run at once; a call beyond them is refused as busy (default 1)
  --threads N         scoring threads of a search (default: the CPUs)
  --cache-dir DIR     the probe cache (default $XDG_CACHE_HOME/vmaf-tune)
  --no-cache          neither read nor write the cache
  --help              print this help and exit
`)
}

func parseMCPArgs(args []string) (*mcpConfig, error) {
	c := &mcpConfig{jobs: 1}
	err := parseOptions(args, []option{
		{names: []string{"--allow"}, value: true, set: func(v string) error {
			if v == "" {
				return usagef("--allow needs a directory")
			}
			c.allow = append(c.allow, v)
			return nil
		}},
		stringOpt(&c.outputDir, "--output-dir"),
		intOpt(&c.jobs, 1, maxMCPJobs, "--jobs"),
		intOpt(&c.threads, 0, maxMCPThreads, "--threads"),
		stringOpt(&c.cacheDir, "--cache-dir"),
		flagOpt(&c.noCache, "--no-cache"),
		flagOpt(&c.help, "--help", "-h"),
	}, nil)
	return c, err
}

func runMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, err := parseMCPArgs(args)
	if err != nil {
		return usageFailure(stderr, "mcp", err)
	}
	if c.help {
		mcpUsage(stdout)
		return exitOK
	}
	srv, err := newTuneServer(c, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "vmaf-tune: mcp: %v\n", err)
		return exitUsage
	}
	defer srv.close()
	if err := mcpfiles.Serve(ctx, srv.mcp, stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "vmaf-tune: mcp: %v\n", err)
		return exitError
	}
	return exitOK
}

// tuneServer is the `mcp` subcommand's server.
type tuneServer struct {
	mcp     *mcp.Server
	allowed *swap.Registry // the --allow directories: sources, model files and point files alike
	outDir  string
	dirs    *mcpfiles.Dirs
	threads int
	cache   *tune.Cache
	slots   chan struct{} // one per search that may run
	log     *slog.Logger
}

func newTuneServer(c *mcpConfig, stderr io.Writer) (*tuneServer, error) {
	log := mcpfiles.NewLog(stderr)
	dirs, err := mcpfiles.OpenDirs(c.allow, c.outputDir, "vmaf-tune-mcp-", log)
	if err != nil {
		return nil, err
	}
	s := &tuneServer{dirs: dirs, allowed: dirs.Allowed, outDir: dirs.Out, threads: c.threads, slots: make(chan struct{}, c.jobs), log: log}
	if s.cache, err = openCache(c.cacheDir, c.noCache); err != nil {
		dirs.Close()
		return nil, err
	}
	s.mcp = mcpfiles.NewServer(&mcp.Implementation{Name: "vmaf-tune", Title: "vmaf-tune: encoder settings by VMAF", Version: version.String()},
		"Finds encoder settings by measuring them with VMAF: crf_search gives the largest CRF whose encode meets a target score; "+
			"run_compare ranks encoders at targets with BD-rates; run_ladder builds a bitrate ladder with HLS and DASH manifests; "+
			"run_tune_per_shot plans a CRF per shot; bd_rate compares two rate-quality curves. Only files inside the directories the server was started with (--allow) can be read; give absolute paths.",
		stderr)
	s.addTools()
	return s, nil
}

func (s *tuneServer) close() { s.dirs.Close() }
