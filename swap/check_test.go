package swap

import (
	"errors"
	"fmt"
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
