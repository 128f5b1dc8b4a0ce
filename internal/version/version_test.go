package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuild(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "bcc0d85e1f2a3b4c5d6e7f8091a2b3c4d5e6f708"
	for _, tc := range []struct {
		name, linked string
		bi           *debug.BuildInfo
		want         string
	}{
		{"no build info", "", nil, "devel"},
		{"linked wins", "0.1.0", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-x"}}, "0.1.0"},
		{"go install", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "v0.1.0"},
		{"checkout, pseudo-version", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261124205000-bcc0d85e1f2a+dirty"}, Settings: vcs(rev, "true")},
			"v0.0.0-20261124205000-bcc0d85e1f2a+dirty"},
		{"older toolchain, clean", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "false")}, "devel+bcc0d85e1f2a"},
		{"older toolchain, modified", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true")}, "devel+bcc0d85e1f2a.dirty"},
		{"nothing stamped", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fromBuild(tc.linked, tc.bi).Version; got != tc.want {
				t.Errorf("version %q, want %q", got, tc.want)
			}
		})
	}
}

// TestRunning checks what the test binary itself says: a test binary is
// not stamped with a module version, so this is the fallback, never empty.
func TestRunning(t *testing.T) {
	if v := String(); v == "" {
		t.Error("empty version")
	}
}
