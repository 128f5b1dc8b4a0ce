package onnx

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestRuntimeLoads: the library the test command names opens, and says
// its version. Under the project's test command it must: the test fails
// rather than skips without it.
func TestRuntimeLoads(t *testing.T) {
	v, err := Version()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(v, "1.") || Library() == "" {
		t.Fatalf("version %q from %q", v, Library())
	}
}

// TestNoRuntime: without a library, asking for one is a clear error that
// names what to install. It runs in a child process, since a process
// opens the library once.
func TestNoRuntime(t *testing.T) {
	if os.Getenv("VMAF_ONNX_CHILD") == "1" {
		_, err := Version()
		if err == nil {
			os.Exit(3)
		}
		os.Stderr.WriteString(err.Error())
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoRuntime$")
	cmd.Env = append(os.Environ(), "VMAF_ONNX_CHILD=1", LibraryEnv+"=/nonexistent/"+LibraryName)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v: %s", err, out)
	}
	for _, want := range []string{"ONNX Runtime is not available", "/nonexistent/" + LibraryName + " (absent)", "scripts/deps.sh", LibraryEnv} {
		if !strings.Contains(string(out), want) {
			t.Errorf("error %q does not say %q", out, want)
		}
	}
}
