// Package attach serves a pipeline.Runner's measurement on an MCP control
// socket: it adapts the Runner to control.Target, with swap requests going
// through a swap.Manager (model registry, off-thread loading and engine
// check) before they reach the Runner's frame-boundary command queue.
//
// Drivers start it once the Runner exists and close it after the Runner
// has finished:
//
//	p, err := attach.Start(attach.Config{Socket: path, Runner: r, ModelDirs: dirs})
//	...
//	r.Finish()
//	p.Close()
package attach
