package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
	var t mcp.Transport = &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}}
	if stdin == os.Stdin && stdout == os.Stdout {
		t = &mcp.StdioTransport{}
	}
	err = srv.mcp.Run(ctx, t)
	switch {
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, context.Canceled), errors.Is(err, mcp.ErrConnectionClosed):
		return exitOK
	}
	fmt.Fprintf(stderr, "vmaf-tune: mcp: %v\n", err)
	return exitError
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// tuneServer is the `mcp` subcommand's server.
type tuneServer struct {
	mcp     *mcp.Server
	allowed *swap.Registry // the --allow directories: sources, model files and point files alike
	outDir  string
	tempOut bool
	threads int
	cache   *tune.Cache
	slots   chan struct{} // one per search that may run
	log     *slog.Logger
}

func newTuneServer(c *mcpConfig, stderr io.Writer) (*tuneServer, error) {
	for _, d := range c.allow {
		if _, err := swap.RealDir(d); err != nil {
			return nil, fmt.Errorf("--allow %s: %w", d, err)
		}
	}
	reg, err := swap.NewRegistry(c.allow...)
	if err != nil {
		return nil, fmt.Errorf("--allow: %w", err)
	}
	s := &tuneServer{allowed: reg, threads: c.threads, slots: make(chan struct{}, c.jobs),
		log: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))}
	if s.cache, err = openCache(c.cacheDir, c.noCache); err != nil {
		return nil, err
	}
	if c.outputDir == "" {
		if s.outDir, err = os.MkdirTemp("", "vmaf-tune-mcp-"); err != nil {
			return nil, fmt.Errorf("output directory: %w", err)
		}
		s.tempOut = true
	} else if s.outDir, err = swap.RealDir(c.outputDir); err != nil {
		return nil, fmt.Errorf("--output-dir: %w", err)
	}
	if len(c.allow) == 0 {
		s.log.Warn("no --allow directory: every call that reads a file is refused")
	}
	s.log.Info("serving MCP on stdio", "allow", strings.Join(reg.Dirs(), ":"), "output_dir", s.outDir)
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "vmaf-tune", Title: "vmaf-tune: encoder settings by VMAF", Version: version.String()},
		&mcp.ServerOptions{
			Instructions: "Finds encoder settings by measuring them with VMAF: crf_search gives the largest CRF whose encode meets a target score; " +
				"run_compare ranks encoders at targets with BD-rates; run_ladder builds a bitrate ladder with HLS and DASH manifests; " +
				"run_tune_per_shot plans a CRF per shot; bd_rate compares two rate-quality curves. Only files inside the directories the server was started with (--allow) can be read; give absolute paths.",
			Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		})
	s.addTools()
	return s, nil
}

func (s *tuneServer) close() {
	if s.tempOut {
		os.Remove(s.outDir) // fails, as it should, when not empty
	}
}
