package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/control/attach"
)

// TestFaultNonFiniteModelOption: a NaN option once scored every frame
// 100.000000 instead of refusing the spec.
func TestFaultNonFiniteModelOption(t *testing.T) {
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	for _, v := range []string{"NaN", "-nan", "Inf", "-Infinity"} {
		spec := "version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=" + v
		res := vmafScore(t, "-r", ref, "-d", dist, "-q", "-m", spec, "--json", "-o", "-")
		if res.code == 0 || !strings.Contains(res.stderr, "not a finite number") {
			t.Errorf("-m %s: exit %d, stderr %q", spec, res.code, res.stderr)
		}
	}
}

// TestFaultMCPMaxClients: the client limit was fixed and undocumented.
func TestFaultMCPMaxClients(t *testing.T) {
	var got int
	withControl(t, func(cfg attach.Config) (io.Closer, error) {
		got = cfg.Options.MaxSessions
		return io.NopCloser(nil), nil
	})
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	sock := filepath.Join(t.TempDir(), "s")
	if res := vmafScore(t, "-r", ref, "-d", dist, "-q", "-o", filepath.Join(t.TempDir(), "o.xml"), "--mcp-uds", sock, "--mcp-max-clients", "3"); res.code != 0 || got != 3 {
		t.Errorf("--mcp-max-clients 3: exit %d (%s), control plane got %d", res.code, res.stderr, got)
	}
	for _, bad := range []string{"0", "5000", "x"} {
		if res := vmafScore(t, "-r", ref, "-d", dist, "--mcp-uds", sock, "--mcp-max-clients", bad); res.code == 0 || !strings.Contains(res.stderr, "--mcp-max-clients") {
			t.Errorf("--mcp-max-clients %s: exit %d, stderr %q", bad, res.code, res.stderr)
		}
	}
}
