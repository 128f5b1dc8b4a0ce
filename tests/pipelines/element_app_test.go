package pipelines

import (
	"strings"
	"testing"
)

// The element as GStreamer applications use it, through GStreamer's
// Python bindings (testdata/app_host.py): each case is what GStreamer's
// own sinks, filters and aggregators do in the same place.

func appHost(t *testing.T, which string, arg ...string) map[string]string {
	t.Helper()
	return pyHost(t, "app_host.py", append([]string{which}, arg...)...)
}

// TestElementSeekAfterEOS: a flushing seek after EOS makes the element
// preroll again and play to a new EOS, scoring the frames again, as any
// sink does.
func TestElementSeekAfterEOS(t *testing.T) {
	for _, factory := range []string{"vmafsink", "vmafpass"} {
		t.Run(factory, func(t *testing.T) {
			kv := appHost(t, "seek-after-eos", factory)
			wantKV(t, kv, map[string]string{"first_eos": "True", "seek": "True", "async_done": "True", "second_eos": "True"})
			first, second := kvInt(t, kv, "first_scored"), kvInt(t, kv, "second_scored")
			// The first pass may count the preroll frame from before its
			// segment seek; the second scores the second's 30 again.
			if first < 30 || second-first < 30 {
				t.Errorf("frames scored %d at the first EOS and %d at the second, want at least 30 more", first, second)
			}
		})
	}
}

// TestPassNegotiation: vmafpass answers caps, accept-caps and allocation
// queries on ref_sink as src's peer does, as identity does, so that a
// downstream that takes one format (a capsfilter, an encoder) gets it.
// The allocation query goes on the streaming thread before the first
// buffer, as upstream sends it; caps and accept-caps come from the
// application once the pipeline has prerolled, while the reference's
// streaming thread is held in the sink's preroll downstream.
func TestPassNegotiation(t *testing.T) {
	for _, tc := range []struct{ down, answered string }{
		// fakesink proposes no allocation; x264enc does.
		{"capsfilter", "False"},
		{"x264enc", "True"},
	} {
		t.Run(tc.down, func(t *testing.T) {
			kv := appHost(t, "pass-caps", tc.down)
			wantKV(t, kv, map[string]string{"prerolled": "True", "ref_formats": "Y444", "alloc_answered": tc.answered,
				"alloc_same": "True", "accepts_i420": "False", "eos": "True", "scored": "20"})
		})
	}
}

// TestPassHeldQuery: a serialized query an application thread sends to
// ref_sink while the pipeline is prerolled waits for the streaming
// thread, as at identity's sink pad; it returns once the pipeline plays
// on or is stopped.
func TestPassHeldQuery(t *testing.T) {
	for _, tc := range []struct {
		route string
		want  map[string]string
	}{
		{"playing", map[string]string{"prerolled": "True", "eos": "True", "scored": "20", "query_returned": "True"}},
		{"null", map[string]string{"prerolled": "True", "query_returned": "True"}},
	} {
		t.Run(tc.route, func(t *testing.T) {
			wantKV(t, appHost(t, "pass-held-query", tc.route), tc.want)
		})
	}
}

// TestPassEvents: only the reference branch's events leave vmafpass's src
// pad: one stream-start, one segment, one caps, and the reference's tags.
func TestPassEvents(t *testing.T) {
	kv := appHost(t, "pass-events")
	wantKV(t, kv, map[string]string{"eos": "True", "stream_starts": "1", "segments": "1", "caps_events": "1",
		"titles": "reference"})
}

// TestPassDistortedEndsFirst: the reference stream vmafpass passes on
// keeps flowing after the distorted stream ends: all 90 frames reach
// downstream, 60 of them scored.
func TestPassDistortedEndsFirst(t *testing.T) {
	kv := appHost(t, "pass-dist-ends")
	wantKV(t, kv, map[string]string{"eos": "True", "downstream": "90", "scored": "60"})
}

// TestElementRapidSeeks: 40 flushing seeks in a row while both branches
// stream post no error: events racing a flush are answered FLUSHING,
// never an error. Before, about one run in three of vmafpass failed with
// "internal data stream error" from upstream.
func TestElementRapidSeeks(t *testing.T) {
	for _, factory := range []string{"vmafpass", "vmafsink"} {
		t.Run(factory, func(t *testing.T) {
			for range 3 {
				kv := appHost(t, "rapid-seeks", factory)
				wantKV(t, kv, map[string]string{"eos": "True", "errors": "0"})
			}
		})
	}
}

// TestElementPadsConverge: a branch free to choose its format and size
// takes the other branch's, whichever pad negotiates first, as an
// aggregator's pads do.
func TestElementPadsConverge(t *testing.T) {
	for _, which := range []string{"ref-fixed", "dist-fixed"} {
		t.Run(which, func(t *testing.T) {
			kv := appHost(t, "converge", which)
			wantKV(t, kv, map[string]string{"eos": "True", "scored": "20", "dist_caps": "I420 176"})
		})
	}
}

// TestElementTinyFrames: frames the model or a requested metric cannot
// score are refused when their caps arrive, with an error from the
// element that says why, and nothing is scored.
func TestElementTinyFrames(t *testing.T) {
	for which, reason := range map[string]string{
		"8x8":     "8x8 is too small",
		"1x1":     "1x1 is too small",
		"ms-ssim": "float_ms_ssim needs at least 176x176",
	} {
		t.Run(which, func(t *testing.T) {
			kv := appHost(t, "tiny", which)
			wantKV(t, kv, map[string]string{"error_from": "v", "format_error": "True", "scored": "0"})
			if !strings.Contains(kv["error"], "cannot be scored") || !strings.Contains(kv["error"], reason) {
				t.Errorf("error %q does not say %q", kv["error"], reason)
			}
		})
	}
}

// TestElementWarnings: what an application should hear about on the bus
// as a warning: a live reference with no distorted stream linked,
// scoring falling behind a live source it holds back
// (backpressure=block, with a QoS message too), and pads whose frame
// rates differ.
func TestElementWarnings(t *testing.T) {
	t.Run("only ref_sink linked, live", func(t *testing.T) {
		kv := appHost(t, "warn-one-linked")
		if !strings.Contains(kv["warning"], "dist_sink is not linked") {
			t.Errorf("warning %q", kv["warning"])
		}
	})
	t.Run("live lag with backpressure=block", func(t *testing.T) {
		kv := appHost(t, "warn-lag")
		if !strings.Contains(kv["warning"], "behind the live source") {
			t.Errorf("warning %q", kv["warning"])
		}
		wantKV(t, kv, map[string]string{"qos_jitter_positive": "True"})
	})
	t.Run("30 fps against 25 fps", func(t *testing.T) {
		kv := appHost(t, "warn-rates")
		if !strings.Contains(kv["warning"], "30/1 fps") || !strings.Contains(kv["warning"], "25/1 fps") {
			t.Errorf("warning %q", kv["warning"])
		}
	})
}

// TestElementLogLevel: under GST_DEBUG=vmafsink:5, log-level reads each
// element's own category (vmafsink's debug, vmafpass's none); setting
// vmafpass's sets its category only, not vmafsink's, nor GStreamer's
// default threshold.
func TestElementLogLevel(t *testing.T) {
	kv := pyHostEnv(t, []string{"GST_DEBUG=vmafsink:5"}, "app_host.py", "log-level")
	wantKV(t, kv, map[string]string{"sink_level": "debug", "pass_level": "none", "pass_category": "LOG",
		"sink_after": "debug", "pass_after": "log", "default_threshold": "0"})
}

// TestElementSinkProperties: what pipelines written for GStreamer's vmaf
// element and for any sink set: vmafpass has no inert sync; vmafsink has
// GstBaseSink's qos, max-lateness, ts-offset, async, enable-last-sample
// and last-sample, sync only changeable in NULL or READY; pool-method has
// one nick per value; results-format=none writes no file.
func TestElementSinkProperties(t *testing.T) {
	kv := appHost(t, "props")
	wantKV(t, kv, map[string]string{
		"pass_has_sync": "False", "sink_has_qos": "True", "sink_has_max_lateness": "True", "sink_has_ts_offset": "True",
		"sink_has_async": "True", "sink_has_last_sample": "True", "sink_has_enable_last_sample": "True",
		"sync_ready_only": "True", "ts_offset": "5000", "max_lateness": "20000000",
		"pool_values": "4", "pool_nicks": "4",
		"none_eos": "True", "none_scored": "10", "none_file": "False", "last_sample": "True",
	})
}
