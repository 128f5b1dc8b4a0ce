// Package control serves a running vmafsink measurement to agents over the
// Model Context Protocol on a Unix socket: live per-frame scores, status,
// and commands (model swap, pause, resume) that the scorer applies at frame
// boundaries.
//
// The package knows nothing of GStreamer or of the engine. Any driver (the
// element, vmaf-score) implements Target and calls Start or Serve.
package control
