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

// TestQoSDrop: with backpressure=drop, each pair dropped because scoring
// lags is a QoS message from the element, as a sink posts for each buffer
// it drops: stats in buffers, the dropped count going up by one each
// time and ending at the pooled message's frames-dropped, the pair's
// timestamp set.
func TestQoSDrop(t *testing.T) {
	kv := stepHost(t, "qos-drop")
	dropped := kvInt(t, kv, "pooled_dropped")
	if dropped == 0 {
		t.Fatal("no pair was dropped: 1280x720 sources unthrottled against one scoring thread should outrun it")
	}
	wantKV(t, kv, map[string]string{"qos_format": "buffers", "dropped_counts_up": "True", "has_timestamp": "True"})
	if n, last := kvInt(t, kv, "qos"), kvInt(t, kv, "last_dropped"); n != dropped || last != dropped {
		t.Errorf("%d QoS messages, the last counting %d dropped, want %d as frames-dropped says", n, last, dropped)
	}
	// Processed pairs are those the scorer took; pairs after the last
	// drop may add to them.
	if p, s := kvInt(t, kv, "last_processed"), kvInt(t, kv, "pooled_scored"); p == 0 || p > s {
		t.Errorf("the last QoS message counts %d processed, want between 1 and the %d pairs scored", p, s)
	}
}
