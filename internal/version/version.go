// Package version says which build of vmafsink is running, for the MCP
// server's serverInfo, vmaf_status and the programs' --version: one
// source, so that every place reports the same string.
//
// The version is what the Go toolchain stamps into the binary. A build
// from a git checkout (go build, or meson, which runs go build in the
// checkout) gets a pseudo-version naming the commit, with "+dirty" when
// the work tree had changes: v0.0.0-20261124205000-bcc0d85e1f2a+dirty.
// `go install github.com/vmafsink/vmafsink/cmd/vmaf-score@v0.1.0` gets
// the module version, v0.1.0. A build with neither (VCS stamping off,
// -buildvcs=false, or a source tree without .git) is "devel", plus the
// revision when one is known. A release build may set the version
// outright with -ldflags "-X github.com/vmafsink/vmafsink/internal/version.set=0.1.0",
// which wins.
package version

import (
	"runtime/debug"
	"sync"
)

// set is the version given at link time, if any.
var set string

// Info is what a build knows about itself.
type Info struct {
	Version  string // see the package comment
	Revision string // the VCS commit, "" when not stamped
	Modified bool   // the work tree had uncommitted changes
	Go       string // the toolchain, e.g. go1.26.8
}

var info = sync.OnceValue(func() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return fromBuild(set, nil)
	}
	return fromBuild(set, bi)
})

// String returns the running build's version.
func String() string { return info().Version }

// fromBuild derives Info from a link-time version and the build info.
func fromBuild(linked string, bi *debug.BuildInfo) Info {
	in := Info{Version: linked}
	if bi == nil {
		if in.Version == "" {
			in.Version = "devel"
		}
		return in
	}
	in.Go = bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	if in.Version != "" {
		return in
	}
	// Go 1.24 and later stamp a checkout's build with a pseudo-version
	// (the commit, "+dirty" when modified); older ones say "(devel)".
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		in.Version = v
		return in
	}
	in.Version = "devel"
	if in.Revision != "" {
		in.Version += "+" + short(in.Revision)
		if in.Modified {
			in.Version += ".dirty"
		}
	}
	return in
}

func short(rev string) string { return rev[:min(len(rev), 12)] }
