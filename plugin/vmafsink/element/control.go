package element

import (
	"log/slog"

	"github.com/vmafsink/vmafsink/pipeline"
)

// ControlStarter starts the agent control plane for one run of an
// element whose mcp-uds or mcp-http property is set. The element calls it once the
// run's Runner exists (READY→PAUSED) and closes the returned server when
// the run ends (PAUSED→READY), after the Runner has finished, so the
// server can still answer a last status query while the element stops.
type ControlStarter func(ControlConfig) (ControlServer, error)

// ControlConfig is what the control plane gets from the element.
type ControlConfig struct {
	SocketPath string   // the mcp-uds property ("": HTTP only)
	HTTPAddr   string   // the mcp-http property ("": socket only)
	TokenFile  string   // the mcp-http-token-file property
	AllowGID   int      // the mcp-allow-gid property: -1, or a group besides the owner
	MaxClients int      // the mcp-max-clients property
	ModelDirs  []string // the model-dirs property, split
	Element    string   // the element's name, for logs
	Engine     string   // the engine property: auto, native or libvmaf
	ModelSpec  string   // the model property the run started with
	Features   []string // extra metrics scored (psnr, float_ssim, float_ms_ssim)
	Runner     *pipeline.Runner
	// Logger writes to the element's debug category.
	Logger *slog.Logger
	// ReadOnlyGID is the mcp-readonly-gid property: -1, or a group whose
	// members may read but not swap, pause or resume.
	ReadOnlyGID int
}

// ControlServer is a running control plane.
type ControlServer interface {
	Close() error
}
