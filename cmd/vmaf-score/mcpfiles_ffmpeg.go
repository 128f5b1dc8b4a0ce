//go:build !lazyffmpeg

package main

import "github.com/asticode/go-astiav"

// mcpHandOff readies this build, which links FFmpeg, to serve `vmaf-score
// mcp`: FFmpeg's own log lines would go to stderr, where a host shows
// them as the server's; its errors reach the client as tool errors.
func mcpHandOff() error {
	astiav.SetLogLevel(astiav.LogLevelQuiet)
	return nil
}
