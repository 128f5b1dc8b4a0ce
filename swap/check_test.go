package swap

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf"
)

// A model the engine refuses is ErrUnsupported, and the engine's own error
// stays reachable for callers that branch on it.
func TestCheckErrorKeepsCause(t *testing.T) {
	tests := []struct {
		name  string
		cause error
	}{
		{"plain", errors.New("engine says no")},
		{"wrapped sentinel", fmt.Errorf("building the context: %w", vmaf.ErrNoLibvmaf)},
	}
	dir, _ := modelDir(t)
	reg, err := NewRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		m := NewManager(reg, Options{Check: func(*vmaf.Model) error { return tc.cause }})
		_, err := m.Request("house", "", (&fakeQueue{}).queue)
		if !errors.Is(err, ErrUnsupported) || !errors.Is(err, tc.cause) {
			t.Errorf("%s: %v, want both ErrUnsupported and the engine's error", tc.name, err)
		}
		if want := ErrUnsupported.Error() + ": " + tc.cause.Error(); err == nil || err.Error() != want {
			t.Errorf("%s: message %v, want %q", tc.name, err, want)
		}
	}
}

// Load's errors carry its sentinel for the control plane's code and the
// parser's or the file system's error for everything else.
func TestLoadErrorKeepsCause(t *testing.T) {
	tests := []struct {
		spec     string
		sentinel error
		cause    error // nil: any second wrapped error
	}{
		{"path=" + filepath.Join(t.TempDir(), "gone.json"), ErrInvalidModel, fs.ErrNotExist},
		{"version=vmaf_v0.6.1:colour=blue", ErrBadSpec, nil},
		{"version=no_such_model", ErrBadSpec, nil},
	}
	for _, tc := range tests {
		_, err := Load(tc.spec)
		if !errors.Is(err, tc.sentinel) {
			t.Errorf("%s: %v, want %v", tc.spec, err, tc.sentinel)
			continue
		}
		if tc.cause != nil && !errors.Is(err, tc.cause) {
			t.Errorf("%s: %v does not wrap %v", tc.spec, err, tc.cause)
		}
		if w, ok := err.(interface{ Unwrap() []error }); !ok || len(w.Unwrap()) != 2 {
			t.Errorf("%s: %v wraps only the sentinel, not the cause", tc.spec, err)
		}
	}
}
