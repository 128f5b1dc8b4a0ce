package vmaf

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLearnedStreamCodec checks that the encoder a stream's tags name
// fills the codec block exactly as the same codec= option does, that
// options the spec gives stay, and what a stream naming no known encoder
// gets from each card.
func TestLearnedStreamCodec(t *testing.T) {
	dir := tinyDir(t)
	x := []float64{0.95, 0.52, 0.86, 0.91, 0.94, 6}
	score := func(t *testing.T, m *Model) float64 {
		t.Helper()
		out := make([]float64, 1)
		if err := m.score(x, out); err != nil {
			t.Fatal(err)
		}
		return out[0]
	}
	for _, tc := range []struct {
		model, opts string
		stream      StreamCodec
		want        StreamEncoder
		explicit    string // the options the block must equal; "" for a refusal
	}{
		{"fr_regressor_v2", "", StreamCodec{Encoder: "x264"}, StreamEncoder{"libx264", "encoder"}, "codec=libx264"},
		{"fr_regressor_v2", ":preset=medium:crf=28", StreamCodec{Encoder: "Lavc59.37.100 libx264", Format: "H264"}, StreamEncoder{"libx264", "encoder"}, "codec=libx264:preset=medium:crf=28"},
		{"fr_regressor_v2", "", StreamCodec{Format: "H.265 (Main Profile)"}, StreamEncoder{"libx265", "format"}, "codec=libx265"},
		{"fr_regressor_v2", "", StreamCodec{Encoder: "Lavf59.27.100", Format: "H.264 / AVC"}, StreamEncoder{"libx264", "format"}, "codec=libx264"},
		{"fr_regressor_v2", "", StreamCodec{Encoder: "x265", Format: "H.264"}, StreamEncoder{"libx265", "encoder"}, "codec=libx265"},
		{"fr_regressor_v2", ":crf=30", StreamCodec{Format: "AV1"}, StreamEncoder{"unknown", ""}, "codec=unknown:crf=30"},
		{"fr_regressor_v2", "", StreamCodec{}, StreamEncoder{"unknown", ""}, "codec=unknown"},
		{"fr_regressor_v3", "", StreamCodec{Encoder: "x264"}, StreamEncoder{"libx264", "encoder"}, "codec=libx264"},
		{"fr_regressor_v3", ":preset=slow", StreamCodec{Format: "H.265 / HEVC"}, StreamEncoder{"libx265", "format"}, "codec=libx265:preset=slow"},
		{"fr_regressor_v3", "", StreamCodec{Format: "VP9"}, StreamEncoder{}, ""},
	} {
		t.Run(tc.model+tc.opts+" "+tc.stream.String(), func(t *testing.T) {
			m, err := ParseStreamModelSpec("path=" + filepath.Join(dir, tc.model+".onnx") + tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !m.TakesStreamCodec() {
				t.Fatal("TakesStreamCodec is false for a codec-aware model without codec=")
			}
			got, enc, err := m.WithStreamCodec(tc.stream)
			if tc.explicit == "" {
				if err == nil || !strings.Contains(err.Error(), "no \"unknown\" slot") {
					t.Fatalf("want a refusal naming the missing unknown slot, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if enc != tc.want {
				t.Errorf("encoder %+v, want %+v", enc, tc.want)
			}
			want, err := ParseModelSpec("path=" + filepath.Join(dir, tc.model+".onnx") + ":" + tc.explicit)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := score(t, got), score(t, want); a != b {
				t.Errorf("score %v with the stream's encoder, %v with %s", a, b, tc.explicit)
			}
			other, err := ParseModelSpec("path=" + filepath.Join(dir, tc.model+".onnx") + ":codec=libsvtav1:preset=0:crf=60")
			if err != nil {
				t.Fatal(err)
			}
			if score(t, got) == score(t, other) {
				t.Errorf("the block does not move the score: %s scores as libsvtav1 preset 0 crf 60 does", tc.explicit)
			}
			if got.Name != m.Name || got.Version != m.Version {
				t.Errorf("the copy is %s (%s), want %s (%s)", got.Name, got.Version, m.Name, m.Version)
			}
		})
	}
}

// TestLearnedStreamCodecPending checks a card without an "unknown" slot
// loaded for a stream: every frame refused until the stream names its
// encoder; a model whose options name the encoder takes none from the
// stream.
func TestLearnedStreamCodecPending(t *testing.T) {
	dir := tinyDir(t)
	path := "path=" + filepath.Join(dir, "fr_regressor_v3.onnx")
	if _, err := ParseModelSpec(path); err == nil {
		t.Fatal("fr_regressor_v3 without codec= loaded outside a stream")
	}
	m, err := ParseStreamModelSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 1)
	err = m.score([]float64{0.95, 0.52, 0.86, 0.91, 0.94, 6}, out)
	if err == nil || !strings.Contains(err.Error(), "tags name its encoder") {
		t.Fatalf("a frame before the stream named its encoder: %v", err)
	}
	if d := m.Describe(); d.Learned == nil || d.Learned.CodecBlock != nil {
		t.Errorf("a pending model describes a codec block: %+v", d.Learned)
	}
	fixed, err := ParseStreamModelSpec(path + ":codec=libaom-av1")
	if err != nil {
		t.Fatal(err)
	}
	if fixed.TakesStreamCodec() {
		t.Error("a model whose options name its encoder takes one from the stream")
	}
	if _, _, err := fixed.WithStreamCodec(StreamCodec{Encoder: "x264"}); err == nil {
		t.Error("WithStreamCodec changed a model whose options name its encoder")
	}
	plain, err := ParseStreamModelSpec("path=" + filepath.Join(dir, "vmaf_tiny_v2.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	if plain.TakesStreamCodec() {
		t.Error("a model without a codec block takes one from the stream")
	}
}
