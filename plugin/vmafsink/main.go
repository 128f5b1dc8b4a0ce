// Command vmafsink is the GStreamer plugin holding the vmafsink element,
// built with go build -buildmode=c-shared -o libgstvmafsink.so.
package main

import "C"

import (
	"fmt"
	"os"
	"unsafe"

	"github.com/go-gst/go-gst/gst"
	"github.com/vmafsink/vmafsink/plugin/vmafsink/element"
	"github.com/vmafsink/vmafsink/plugin/vmafsink/gstvmafsink"
)

// version is the plugin's version; builds may set it with
// -ldflags "-X main.version=...".
var version = gstvmafsink.Version

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
		return element.Register(p, gstvmafsink.ElementOptions(version))
	},
}

// gst_plugin_vmafsink_get_desc is the symbol GStreamer looks up in
// libgstvmafsink.so.
//
//export gst_plugin_vmafsink_get_desc
func gst_plugin_vmafsink_get_desc() unsafe.Pointer { return plugin.Export() }

func main() {}
