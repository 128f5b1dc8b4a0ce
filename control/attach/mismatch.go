package attach

import (
	"fmt"

	"github.com/vmafsink/vmafsink/vmaf"
)

// mismatch says why model m does not suit w×h frames, or "". It is the
// one judgement behind vmaf_status's warning, the swap reply's
// mismatched_model_warning and vmaf_describe_model's: a model meant for
// 4K on frames well under it saturates near 100, and a 1080p model on 4K
// frames is not what the 4K model is for. A model whose display is
// unknown (a file whose name is not libvmaf's) is not judged.
func mismatch(m *vmaf.Model, w, h int) string {
	if m == nil || h <= 0 {
		return ""
	}
	v := m.Viewing()
	switch {
	case !v.Known():
		return ""
	case v.Height >= 2160 && h < 1440:
		return fmt.Sprintf("model %s is meant for 4K (2160p) viewing; on %dx%d input its scores saturate near 100 — swap to vmaf_v0.6.1", m.Label(), w, h)
	case v.Height < 2160 && h >= 2160:
		return fmt.Sprintf("model %s is meant for %dp viewing; for %dx%d input vmaf_4k_v0.6.1 fits better", m.Label(), v.Height, w, h)
	}
	return ""
}

// ModelMismatch is the same judgement for programs that score without a
// control plane (vmaf-score's warnings).
func ModelMismatch(m *vmaf.Model, w, h int) string { return mismatch(m, w, h) }
