package pipelines

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestElementCodecTagsPerStream: the codec tags a codec-aware model reads
// belong to one stream. A stream-start with a new stream-id begins another
// stream, whose tags are read afresh: the old stream's own encoder tag no
// longer hides the new container's; a stream-start repeating the stream-id
// keeps the stream's tags.
func TestElementCodecTagsPerStream(t *testing.T) {
	v2 := filepath.Join(tinyModels(t), "fr_regressor_v2.onnx")
	for _, tc := range []struct {
		name, arg string
		warned    bool
	}{
		{"a new stream-id", "new-stream", true},
		{"the same stream-id", "same-stream", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kv := pyHost(t, "codec_host.py", tc.arg, v2)
			wantKV(t, kv, map[string]string{"end": "eos", "frames_scored": "20"})
			if kv["pushed_stream_start"] == "" {
				t.Fatal("the host pushed no second stream-start")
			}
			warned := strings.Contains(kv["warning"], `encoder "MysteryEnc"`) && strings.Contains(kv["warning"], `"unknown" encoder`)
			if warned != tc.warned {
				t.Errorf("a warning naming the new container's encoder: %v, want %v (warnings: %q)", warned, tc.warned, kv["warning"])
			}
		})
	}
}
