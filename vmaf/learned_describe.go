package vmaf

import (
	"encoding/json"
	"path/filepath"
)

// LearnedDescription is what a learned model is: for vmaf_describe_model
// and for people choosing a model.
type LearnedDescription struct {
	ID   string `json:"id"`   // the model's id, from its card or file name
	Kind string `json:"kind"` // "full-reference" or "no-reference"
	// Inputs and Output are the graph's tensors, e.g. "features float[N,6]".
	Inputs []string `json:"inputs"`
	Output string   `json:"output"`
	// Preparation says how the engine prepares the inputs.
	Preparation string             `json:"preparation"`
	CodecBlock  map[string]float64 `json:"codec_block,omitempty"` // a codec-aware model's block, by its card's layout
	SHA256      string             `json:"sha256"`
	Pinned      string             `json:"sha256_pinned_by,omitempty"` // what pins the sha256 ("registry.json", ...); "" when nothing does
	License     string             `json:"license,omitempty"`
	LicenseURL  string             `json:"license_url,omitempty"`
	Card        string             `json:"card,omitempty"`     // the card's path, "" without one
	Notes       string             `json:"notes,omitempty"`    // the card's notes (or the registry's)
	Training    map[string]any     `json:"training,omitempty"` // the card's training record, as it gives it
	Runtime     string             `json:"runtime"`            // "onnxruntime 1.24.1"
	Device      string             `json:"device"`
	Threads     int                `json:"threads"`
}

func (lm *learnedModel) describe(d *ModelDescription) {
	d.Type = "ONNX"
	ld := &LearnedDescription{ID: lm.id, SHA256: lm.files.SHA256, Pinned: lm.files.PinnedBy,
		Device: lm.sess.Device, Threads: lm.sess.Threads, Runtime: LearnedRuntime([]*Model{{learned: lm}})}
	for _, in := range lm.sess.Inputs {
		ld.Inputs = append(ld.Inputs, in.String())
	}
	ld.Output = lm.sess.Outputs[0].String()
	switch lm.kind {
	case "fr":
		ld.Kind = "full-reference"
		ld.Preparation = "the engine's integer features in the card's order (adm2, vif_scale0..3, motion2), fed raw"
		if lm.mean != nil {
			ld.Preparation = "the engine's integer features in the card's order, standardised with the card's feature_mean and feature_std"
			d.Norm = "standardise"
		}
		if lm.codec != nil && lm.codecErr == nil {
			ld.CodecBlock = map[string]float64{}
			for i, l := range lm.layout {
				ld.CodecBlock[l] = float64(lm.codec[i])
			}
		}
	case "nr":
		ld.Kind = "no-reference"
		n := lm.sess.Inputs[0].Shape[2]
		ld.Preparation = "the distorted luma alone, area-scaled to " + itoa(n) + "x" + itoa(n) + " in 8 bits as FFmpeg's scale=" +
			itoa(n) + ":" + itoa(n) + ":flags=area to gray (full range), divided by 255"
	}
	if r := lm.files.Registry; r != nil {
		ld.License, ld.LicenseURL, ld.Notes = r.License, r.LicenseURL, r.Notes
	}
	if s := lm.files.Card; s != nil {
		ld.Card = lm.files.CardFile
		if s.Notes != "" {
			ld.Notes = s.Notes
		}
		ld.Training = s.Training
	}
	d.Learned = ld
	d.Viewing = Viewing{Resolution: "unknown", Display: "unknown",
		Basis: "a learned model's card (" + filepath.Base(lm.files.Path) + ") carries no resolution or viewing distance"}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
