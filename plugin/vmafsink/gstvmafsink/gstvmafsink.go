// Package gstvmafsink adds the vmafsink element, with its control plane,
// to GStreamer: the plugin's shared library registers it through
// ElementOptions, and a Go program that uses GStreamer itself (go-gst)
// calls Register instead of loading that library, which would start a
// second Go runtime in the process.
package gstvmafsink

import (
	"sync"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/control/attach"
	"github.com/vmafsink/vmafsink/plugin/vmafsink/element"
)

// Version is the element's version, shown by gst-inspect.
const Version = "0.1.0"

var (
	registerOnce sync.Once
	registered   bool
)

// Register adds vmafsink to the GStreamer of the running program, which
// must have called gst.Init. Later calls do nothing and report the first
// call's result.
func Register() bool {
	registerOnce.Do(func() {
		registered = element.Register(nil, ElementOptions(Version))
	})
	return registered
}

// ElementOptions are the element's options with the control plane served
// through package control.
func ElementOptions(version string) element.Options {
	return element.Options{Control: startControl, WorkerSetup: attach.WorkerSetup, Version: version}
}

// startControl serves the agent control plane for an element whose
// mcp-uds or mcp-http property is set.
func startControl(c element.ControlConfig) (element.ControlServer, error) {
	p, err := attach.Start(attach.Config{
		Socket:    c.SocketPath,
		Runner:    c.Runner,
		ModelDirs: c.ModelDirs,
		ModelSpec: c.ModelSpec,
		Engine:    c.Engine,
		Features:  c.Features,
		Options: control.Options{AllowGID: c.AllowGID, ReadOnlyGID: c.ReadOnlyGID, MaxSessions: c.MaxClients, Logger: c.Logger,
			HTTPAddr: c.HTTPAddr, HTTPTokenFile: c.TokenFile},
	})
	if err != nil {
		// A nil *Plane in the interface would not compare equal to nil.
		return nil, err
	}
	return p, nil
}
