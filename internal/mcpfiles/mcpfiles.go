// Package mcpfiles is what the MCP servers on stdio that work on files
// share (vmaf-score mcp, vmaf-tune mcp): the directories a client may make
// them read, the one directory they write into, the containers a video
// may be read from, and serving on stdio with the control socket's line
// checks.
package mcpfiles

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/swap"
)

// Demuxers are the containers a client's video may be read from: those
// that hold their video themselves. Playlists, concat lists, manifests
// and session descriptions, which make FFmpeg open other files or
// addresses, are not among them; nor is any protocol but file.
// (This package links no FFmpeg: vmaf-score's lazyffmpeg build uses it.)
const Demuxers = "matroska,mov,avi,mpegts,mpeg,flv,nut,ivf,yuv4mpegpipe,rawvideo,h264,hevc,mpegvideo,m4v,obu,mxf,asf,ogg,mjpeg"

// MaxLine bounds one JSON-RPC message on standard input.
const MaxLine = 1 << 20

// Dirs are a server's directories: those it may read (--allow, symbolic
// links resolved) and the one it writes into.
type Dirs struct {
	Allowed *swap.Registry
	Out     string // resolved
	tempOut bool   // Out was made here
}

// OpenDirs checks the --allow directories and the output directory ("":
// a new directory under $TMPDIR named from tempPrefix), and logs what the
// server serves.
func OpenDirs(allow []string, outputDir, tempPrefix string, log *slog.Logger) (*Dirs, error) {
	// The allow list is the registry the control plane checks model files
	// with: one rule for what a client may make this process read.
	for _, d := range allow {
		if _, err := swap.RealDir(d); err != nil {
			return nil, fmt.Errorf("--allow %s: %w", d, err)
		}
	}
	reg, err := swap.NewRegistry(allow...)
	if err != nil {
		return nil, fmt.Errorf("--allow: %w", err)
	}
	d := &Dirs{Allowed: reg}
	if outputDir == "" {
		if d.Out, err = os.MkdirTemp("", tempPrefix); err != nil {
			return nil, fmt.Errorf("output directory: %w", err)
		}
		d.tempOut = true
	} else if d.Out, err = swap.RealDir(outputDir); err != nil {
		return nil, fmt.Errorf("--output-dir: %w", err)
	}
	if len(allow) == 0 {
		log.Warn("no --allow directory: every call that reads a file is refused")
	}
	log.Info("serving MCP on stdio", "allow", strings.Join(reg.Dirs(), ":"), "output_dir", d.Out)
	return d, nil
}

// Close removes the output directory made by OpenDirs if nothing was
// left in it.
func (d *Dirs) Close() {
	if d.tempOut {
		os.Remove(d.Out) // fails, as it should, when not empty
	}
}

// NewLog is a server's log on stderr, at Info.
func NewLog(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// NewServer is an MCP server whose SDK logs only warnings to stderr (its
// lines at Info are about every session).
func NewServer(impl *mcp.Implementation, instructions string, stderr io.Writer) *mcp.Server {
	return mcp.NewServer(impl, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
}

// Serve runs srv on in and out until the client closes its side or ctx
// ends, which are no errors. A bad line costs its sender an error reply,
// not the session (control.StdioTransport).
func Serve(ctx context.Context, srv *mcp.Server, in io.Reader, out io.Writer) error {
	err := srv.Run(ctx, control.StdioTransport(in, out, MaxLine))
	switch {
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, context.Canceled), errors.Is(err, mcp.ErrConnectionClosed):
		return nil
	}
	return err
}
