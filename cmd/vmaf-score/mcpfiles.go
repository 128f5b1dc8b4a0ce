package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/internal/mcpfiles"
	"github.com/vmafsink/vmafsink/internal/version"
	"github.com/vmafsink/vmafsink/swap"
)

// `vmaf-score mcp` is an MCP server on stdio, the way desktop hosts start
// servers, whose one tool scores a pair of files with the same code as a
// command-line run (mcpfiles_tool.go). It reads only files under the
// --allow directories and writes only into its output directory.

// mcpFilesConfig is the `mcp` subcommand's command line.
type mcpFilesConfig struct {
	allow     []string
	outputDir string // "": a new temporary directory
	jobs      int    // scorings at once
	threads   int    // a call's default --threads
	memoryMiB int    // frames the calls running may hold, in MiB
	help      bool
}

// Bounds on the subcommand's options.
const (
	maxMCPJobs    = 8
	maxMCPThreads = 256
)

func mcpFilesUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: vmaf-score mcp --allow DIR [--allow DIR]... [options]

Serves MCP on standard input and output with one tool, vmaf_score_files,
which scores a distorted video against its reference as vmaf-score does.
It reads only files inside the --allow directories (symbolic links
resolved) and writes result files only into the output directory.

  --allow DIR         a directory whose videos and model files may be read (repeatable)
  --output-dir DIR    where result files go (default: a new directory under $TMPDIR,
                      printed on stderr at start and removed at exit if left empty)
  --jobs N            scorings run at once; a call beyond them is refused as busy (default 1)
  --threads N         scoring threads of a call that does not set threads (default 0)
  --max-memory MIB    frames the scorings running may hold together, in MiB; a call
                      that does not fit is refused as busy (default 2048)
  --help              print this help and exit
`)
}

// parseMCPFilesArgs reads the subcommand's options: --name value or
// --name=value, no abbreviations (there is no libvmaf tool to match).
func parseMCPFilesArgs(args []string) (*mcpFilesConfig, error) {
	c := &mcpFilesConfig{jobs: 1, memoryMiB: defaultMCPMemoryMiB}
	for i := 0; i < len(args); i++ {
		name, val, hasVal := strings.Cut(args[i], "=")
		switch name {
		case "--help", "-h":
			c.help = true
			continue
		case "--allow", "--output-dir", "--jobs", "--threads", "--max-memory":
		default:
			return nil, usagef("mcp: unknown option %q", args[i])
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, usagef("mcp: option %s needs an argument", name)
			}
			i++
			val = args[i]
		}
		var err error
		switch name {
		case "--allow":
			if val == "" {
				return nil, usagef("mcp: --allow needs a directory")
			}
			c.allow = append(c.allow, val)
		case "--output-dir":
			c.outputDir = val
		case "--jobs":
			if err = parseUint(val, "--jobs", &c.jobs); err == nil && (c.jobs < 1 || c.jobs > maxMCPJobs) {
				err = invalid(val, "--jobs", fmt.Sprintf("between 1 and %d", maxMCPJobs))
			}
		case "--threads":
			if err = parseUint(val, "--threads", &c.threads); err == nil && c.threads > maxMCPThreads {
				err = invalid(val, "--threads", fmt.Sprintf("at most %d", maxMCPThreads))
			}
		case "--max-memory":
			if err = parseUint(val, "--max-memory", &c.memoryMiB); err == nil && (c.memoryMiB < 64 || c.memoryMiB > 1<<20) {
				err = invalid(val, "--max-memory", "between 64 and 1048576 (MiB)")
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

// runMCPFiles runs `vmaf-score mcp` until the client closes its side or
// ctx ends. in and out are the transport; stderr takes the log.
func runMCPFiles(ctx context.Context, args []string, in io.Reader, out io.Writer, stderr io.Writer) int {
	c, err := parseMCPFilesArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "vmaf-score: %v (see vmaf-score mcp --help)\n", err)
		return exitUsage
	}
	if c.help {
		mcpFilesUsage(out)
		return exitOK
	}
	if err := mcpHandOff(); err != nil {
		fmt.Fprintf(stderr, "vmaf-score: mcp: %v\n", err)
		return exitError
	}
	srv, err := newFilesServer(c, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "vmaf-score: mcp: %v\n", err)
		return exitUsage
	}
	defer srv.close()
	if err := mcpfiles.Serve(ctx, srv.mcp, in, out); err != nil {
		fmt.Fprintf(stderr, "vmaf-score: mcp: %v\n", err)
		return exitError
	}
	return exitOK
}

// filesServer is the `mcp` subcommand's server.
type filesServer struct {
	mcp     *mcp.Server
	allowed *swap.Registry // the --allow directories, for videos and model files alike
	outDir  string         // resolved
	dirs    *mcpfiles.Dirs
	threads int
	slots   chan struct{} // one per scoring that may run
	memory  *memoryBudget
	log     *slog.Logger

	// writing holds the named outputs of the calls running, so that two
	// calls cannot write one file at once.
	writingMu sync.Mutex
	writing   map[string]bool
}

func newFilesServer(c *mcpFilesConfig, stderr io.Writer) (*filesServer, error) {
	log := mcpfiles.NewLog(stderr)
	dirs, err := mcpfiles.OpenDirs(c.allow, c.outputDir, "vmaf-score-mcp-", log)
	if err != nil {
		return nil, err
	}
	s := &filesServer{dirs: dirs, allowed: dirs.Allowed, outDir: dirs.Out, threads: c.threads, slots: make(chan struct{}, c.jobs), writing: map[string]bool{},
		memory: &memoryBudget{limit: int64(c.memoryMiB) << 20}, log: log}
	s.mcp = mcpfiles.NewServer(&mcp.Implementation{Name: "vmaf-score", Title: "vmaf-score: VMAF of video files", Version: version.String()},
		"Scores a distorted video against its reference with VMAF (libvmaf's models and feature extractors). "+
			"Only files inside the directories the server was started with (--allow) can be read; give absolute paths.", stderr)
	s.addTools()
	return s, nil
}

// close removes the temporary output directory if no result file was
// left in it.
func (s *filesServer) close() { s.dirs.Close() }
