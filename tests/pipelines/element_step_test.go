package pipelines

import (
	"testing"
)

// The element's step and QoS behaviour as GStreamer applications see it,
// through GStreamer's Python bindings (testdata/step_host.py).

func stepHost(t *testing.T, which string, arg ...string) map[string]string {
	t.Helper()
	return pyHost(t, "step_host.py", append([]string{which}, arg...)...)
}

// TestStepDoneAfterScoring: a step event in PAUSED ends with STEP_DONE
// from the element once the stepped frames are scored, and not one frame
// more: the frame messages on the bus before each STEP_DONE number the
// reference frames stepped so far (those that reached ref_sink, less the
// one the element prerolled on again).
func TestStepDoneAfterScoring(t *testing.T) {
	for _, tc := range []struct {
		format, steps, stepped string
	}{
		{"buffers", "True,True,True,True", "1,4,9,19"},
		{"time", "True,True,True", "3,9,18"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			kv := stepHost(t, "step", tc.format)
			wantKV(t, kv, map[string]string{"prerolled": "True", "steps_done": tc.steps, "step_done_from": "v"})
			if kv["scored"] != kv["stepped"] {
				t.Errorf("frames scored at each STEP_DONE %q, want the frames stepped %q", kv["scored"], kv["stepped"])
			}
			if kv["stepped"] != tc.stepped {
				t.Errorf("frames stepped %q, want %q", kv["stepped"], tc.stepped)
			}
		})
	}
}
