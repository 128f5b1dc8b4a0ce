// Command vmafsink is the GStreamer plugin holding the vmafsink element,
// built with go build -buildmode=c-shared -o libgstvmafsink.so.
package main

import "C"

import (
	"fmt"
	"os"
	"unsafe"

	"github.com/go-gst/go-gst/gst"
	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/control/attach"
	"github.com/vmafsink/vmafsink/plugin/vmafsink/element"
)

// version is the plugin's version; builds may set it with
// -ldflags "-X main.version=...".
var version = "0.1.0"

var plugin = &gst.PluginMetadata{
	MajorVersion: gst.VersionMajor,
	MinorVersion: gst.VersionMinor,
	Name:         "vmafsink",
	Description:  "VMAF video quality scoring in the pipeline, with libvmaf 3.2.0's numbers",
	Version:      version,
	License:      gst.LicenseBSD,
	Source:       "vmafsink",
	Package:      "vmafsink",
	Origin:       "https://github.com/vmafsink/vmafsink",
	ReleaseDate:  "2026-01-01",
	Init: func(p *gst.Plugin) (ok bool) {
		// Loading the plugin must not take the host down: a panic fails
		// the registration instead.
		defer func() {
			if v := recover(); v != nil {
				fmt.Fprintf(os.Stderr, "vmafsink: plugin registration failed: %v\n", v)
				ok = false
			}
		}()
		return element.Register(p, element.Options{Control: controlStarter, WorkerSetup: attach.WorkerSetup, Version: version})
	},
}

// controlStarter serves the agent control plane (package control, through
// its Runner adapter) for an element whose mcp-uds property is set.
func controlStarter(c element.ControlConfig) (element.ControlServer, error) {
	p, err := attach.Start(attach.Config{
		Socket:    c.SocketPath,
		Runner:    c.Runner,
		ModelDirs: c.ModelDirs,
		ModelSpec: c.ModelSpec,
		Engine:    c.Engine,
		Features:  c.Features,
		Options:   control.Options{AllowGID: c.AllowGID, MaxSessions: c.MaxClients, Logger: c.Logger},
	})
	if err != nil {
		// A nil *Plane in the interface would not compare equal to nil.
		return nil, err
	}
	return p, nil
}

// gst_plugin_vmafsink_get_desc is the symbol GStreamer looks up in
// libgstvmafsink.so.
//
//export gst_plugin_vmafsink_get_desc
func gst_plugin_vmafsink_get_desc() unsafe.Pointer { return plugin.Export() }

func main() {}
