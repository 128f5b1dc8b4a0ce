package vmaf

import (
	"fmt"
	"slices"
	"strings"
)

// A codec-aware regressor is told which encoder made the distorted
// stream. Model options say it (codec=libx264); a caller that reads the
// stream's own metadata, as the GStreamer element reads the distorted
// branch's tags, can also fill in what the options leave out.

// StreamCodec is what a distorted stream's metadata says about its
// encode, as GStreamer's tags carry it.
type StreamCodec struct {
	// Encoder is the encoder tag: "x264" from x264enc, "Lavc59.37.100
	// libx264" from a file FFmpeg wrote in Matroska.
	Encoder string
	// Format is the video-codec tag: "H.264 / AVC", "H.265 (Main Profile)".
	Format string
}

func (c StreamCodec) String() string {
	var parts []string
	if c.Encoder != "" {
		parts = append(parts, fmt.Sprintf("encoder %q", c.Encoder))
	}
	if c.Format != "" {
		parts = append(parts, fmt.Sprintf("video-codec %q", c.Format))
	}
	if len(parts) == 0 {
		return "no encoder or video-codec"
	}
	return strings.Join(parts, ", ")
}

// StreamEncoder is the encoder the codec block names for a stream, and
// where that came from.
type StreamEncoder struct {
	// Name is the card's encoder ("libx264"), or "unknown" for the card's
	// unknown slot.
	Name string
	// From is "encoder" when the encoder tag names it, "format" when only
	// the video-codec tag does (H.264 is read as libx264, as codec=h264
	// is), "" when neither names an encoder the card knows.
	From string
}

// ParseStreamModelSpec is ParseModelSpec for a caller that learns the
// distorted stream's encoder as it runs (WithStreamCodec): a codec-aware
// model whose options name no encoder loads even when its card has no
// "unknown" slot, and refuses every frame until it is given one.
func ParseStreamModelSpec(spec string) (*Model, error) {
	s, err := ParseModelSpecString(spec)
	if err != nil {
		return nil, err
	}
	return s.load(spec, true)
}

// TakesStreamCodec reports whether m is a codec-aware learned model whose
// options name no encoder, so that WithStreamCodec may name one.
func (m *Model) TakesStreamCodec() bool {
	return m.learned != nil && m.learned.layout != nil && m.learned.cfg.codec.encoder == ""
}

// WithStreamCodec returns m with the encoder in its codec block taken
// from what the stream says, for a model that TakesStreamCodec. The
// options' preset=, crf=, preset_norm= and crf_norm= stay as given; a
// stream naming no encoder the card knows takes its "unknown" slot, or
// is refused where the card has none. The copy shares m's session.
func (m *Model) WithStreamCodec(c StreamCodec) (*Model, StreamEncoder, error) {
	if !m.TakesStreamCodec() {
		return nil, StreamEncoder{}, fmt.Errorf("vmaf: model %s takes no encoder from the stream", m.Name)
	}
	lm := m.learned
	enc := lm.streamEncoder(c)
	spec := lm.cfg.codec
	spec.encoder = enc.Name
	block, err := spec.block(lm.layout)
	if err != nil {
		return nil, enc, fmt.Errorf("vmaf: model %s: the stream says %s: %w", m.Name, c, err)
	}
	if enc.From == "" {
		enc.Name = "unknown"
	}
	out := *m
	out.learned = &learnedModel{files: lm.files, sess: lm.sess, id: lm.id, kind: lm.kind, cfg: lm.cfg,
		order: lm.order, mean: lm.mean, std: lm.std, codec: block, layout: lm.layout, outRank: lm.outRank}
	return &out, enc, nil
}

// streamEncoder names the card's encoder for what the stream says: a
// word of the encoder tag that is one of the card's encoders or their
// other names (x264, x265, svt-av1), else the format's family read as
// codec= reads it (h264, hevc, vp9).
func (lm *learnedModel) streamEncoder(c StreamCodec) StreamEncoder {
	var vocab []string
	for _, l := range lm.layout {
		if e, ok := strings.CutPrefix(l, "encoder_onehot["); ok && e != "unknown]" {
			vocab = append(vocab, strings.TrimSuffix(e, "]"))
		}
	}
	known := func(word string) string {
		if a, ok := encoderAliases[word]; ok {
			word = a
		}
		if slices.Contains(vocab, word) {
			return word
		}
		return ""
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(c.Encoder), func(r rune) bool {
		return r == ' ' || r == '/' || r == ',' || r == ';' || r == '(' || r == ')'
	}) {
		if e := known(w); e != "" {
			return StreamEncoder{Name: e, From: "encoder"}
		}
	}
	family, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(c.Format)), " ")
	family, _, _ = strings.Cut(family, "(")
	family = strings.NewReplacer(".", "", "-", "").Replace(family)
	if family != "" {
		if e := known(family); e != "" {
			return StreamEncoder{Name: e, From: "format"}
		}
	}
	return StreamEncoder{}
}
