package pipelines

import (
	"strconv"
	"strings"
	"testing"
)

// TestElementFeatures: the features property's requests, in libvmaf's
// --feature grammar, through GStreamer's Python bindings. Requested
// extractors are scored, their values reach the frame messages, the
// pooled message and the results file; a request for psnr replaces the
// psnr property's. A bad request is a warning when set and a settings
// error at start, without a hang, and the element starts once it is fixed.
func TestElementFeatures(t *testing.T) {
	t.Run("requests are scored and reported", func(t *testing.T) {
		kv := sinkHost(t, "features")
		wantKV(t, kv, map[string]string{
			"features": "cambi=full_ref=true; ciede;psnr=enable_chroma=false:enable_apsnr=true",
			"eos":      "True", "frames": "8", "file_frames": "8",
			"with_cambi": "8", "with_cambi_full_reference": "8", "with_cambi_source": "8",
			"with_ciede2000": "8", "with_psnr_y": "8", "with_psnr_y_alias": "8", "with_vmaf": "8",
			// enable_chroma=false: the psnr property's own request, which
			// would add psnr_cb, is left out.
			"with_psnr_cb": "0", "pooled_psnr_cb_mean": "none",
			"file_ciede": "8", "file_cambi": "8",
		})
		for _, k := range []string{"pooled_ciede2000_mean", "pooled_cambi_full_reference_mean", "pooled_psnr_y_mean", "pooled_apsnr_y", "file_apsnr_y", "file_ciede_mean"} {
			v, err := strconv.ParseFloat(kv[k], 64)
			if err != nil || v < 0 || (k != "pooled_cambi_full_reference_mean" && v == 0) {
				t.Errorf("%s = %q", k, kv[k])
			}
		}
		if kv["pooled_ciede2000_mean"] != kv["file_ciede_mean"] {
			t.Errorf("pooled ciede2000 mean %s on the bus, %s in the file", kv["pooled_ciede2000_mean"], kv["file_ciede_mean"])
		}
		if kv["pooled_apsnr_y"] != kv["file_apsnr_y"] {
			t.Errorf("apsnr_y %s on the bus, %s in the file", kv["pooled_apsnr_y"], kv["file_apsnr_y"])
		}
	})
	t.Run("a bad request is refused", func(t *testing.T) {
		kv := sinkHost(t, "bad-features")
		wantKV(t, kv, map[string]string{
			"vmafsink_features_ready": "True", "vmafpass_features_ready": "True",
			"start_return": "failure", "start_error_domain": "gst-library-error-quark",
			"fixed_eos": "True", "fixed_scored": "8", "fixed_ciede": "True",
		})
		reason := `request "cambi=bogus=1": feature cambi: unknown option "bogus"`
		for _, k := range []string{"set_warning", "start_error"} {
			if !strings.Contains(kv[k], reason) {
				t.Errorf("%s = %q, want it to say %q", k, kv[k], reason)
			}
		}
		// A hang, not the machine's speed: a minute is long enough to tell.
		if s, _ := strconv.ParseFloat(kv["null_seconds"], 64); s > 60 {
			t.Errorf("stopping the refused pipeline took %s s", kv["null_seconds"])
		}
	})
}
