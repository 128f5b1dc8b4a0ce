package report

import (
	"bytes"
	"strings"
	"testing"
)

// The engine's integer_motion is written under the key libvmaf's tool
// uses, in frames, CSV headers and pooled metrics alike.
func TestMotionSADKey(t *testing.T) {
	for _, f := range []Format{JSON, XML, CSV, Sub} {
		var out bytes.Buffer
		w := NewWriter(&out, Options{Format: f})
		for i := 0; i < 2; i++ {
			if err := w.WriteFrame(Frame{Num: i, Metrics: []Metric{{Name: "integer_motion", Value: 1.5}, {Name: "vmaf", Value: 90}}}); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		s := out.String()
		if !strings.Contains(s, "VMAF_integer_feature_motion_sad_score") || strings.Contains(s, "integer_motion") {
			t.Errorf("%v: motion SAD not under libvmaf's key:\n%s", f, s)
		}
	}
}
