package onnx

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/vmafsink/vmafsink/internal/boundedfile"
)

// MaxModelBytes bounds a learned model: its .onnx file and its
// external weights (.onnx.data) together. The largest model published for
// this use is a few MiB; a path naming a file of many GB is refused before
// ONNX Runtime maps it.
const MaxModelBytes = 256 << 20

// Card is the JSON card published beside a learned model: what it
// takes, how its inputs are prepared, and how it was trained.
type Card struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	Kind         string    `json:"kind"`
	ONNX         string    `json:"onnx"`
	SHA256       string    `json:"sha256"`
	Int8SHA256   string    `json:"int8_sha256"`
	Features     []string  `json:"features"`
	FeatureOrder []string  `json:"feature_order"`
	InputNames   []string  `json:"input_names"`
	InputName    string    `json:"input_name"`
	FeatureMean  []float64 `json:"feature_mean"`
	FeatureStd   []float64 `json:"feature_std"`
	// input_mean/input_std describe a scaler baked into the graph: the
	// runtime feeds raw values, so they are for reading only.
	InputMean        []float64      `json:"input_mean"`
	CodecAware       bool           `json:"codec_aware"`
	CodecBlockLayout []string       `json:"codec_block_layout"`
	EncoderVocab     []string       `json:"encoder_vocab"`
	VocabVersion     int            `json:"encoder_vocab_version"`
	Notes            string         `json:"notes"`
	Training         map[string]any `json:"training"`
}

// RegistryEntry is one model of a registry.json, which pins each file's
// sha256 and records its licence.
type RegistryEntry struct {
	ID         string `json:"id"`
	Kind       string `json:"kind"`
	License    string `json:"license"`
	LicenseURL string `json:"license_url"`
	Notes      string `json:"notes"`
	ONNX       string `json:"onnx"`
	SHA256     string `json:"sha256"`
}

// Files is what sits beside a learned model, read and checked.
type Files struct {
	Path, SHA256 string
	Size         int64 // with the external weights
	Card         *Card // nil without one
	CardFile     string
	Registry     *RegistryEntry // the registry's entry for the model, or for the model it is an int8 copy of
	Pinned       string         // the sha256 the registry (or its card, for an int8 copy) pins; "" when none
	PinnedBy     string
}

// ReadFiles hashes the model, reads its sidecar and registry and
// checks the model against the hashes they pin. strict refuses a model
// the registry does not pin.
func ReadFiles(path string, strict bool) (*Files, error) {
	lf := &Files{Path: path}
	var err error
	if lf.SHA256, lf.Size, err = hashModel(path); err != nil {
		return nil, err
	}
	dir, base := filepath.Dir(path), filepath.Base(path)
	stem := strings.TrimSuffix(base, ".onnx")
	if lf.Card, lf.CardFile, err = readSidecar(filepath.Join(dir, stem+".json")); err != nil {
		return nil, err
	}
	parent := strings.TrimSuffix(stem, ".int8")
	isInt8 := parent != stem
	var parentSide *Card
	if isInt8 {
		if parentSide, _, err = readSidecar(filepath.Join(dir, parent+".json")); err != nil {
			return nil, err
		}
		if lf.Card == nil && parentSide != nil {
			// An int8 copy without a card of its own is its parent's model
			// quantised: same inputs, same preparation.
			lf.Card, lf.CardFile = parentSide, filepath.Join(dir, parent+".json")
		}
	}
	reg, err := readRegistry(filepath.Join(dir, "registry.json"))
	if err != nil {
		return nil, err
	}
	for i := range reg {
		switch reg[i].ONNX {
		case base:
			lf.Registry, lf.Pinned, lf.PinnedBy = &reg[i], reg[i].SHA256, "registry.json"
		case parent + ".onnx":
			if isInt8 && lf.Registry == nil {
				lf.Registry = &reg[i]
				if parentSide != nil && parentSide.Int8SHA256 != "" {
					lf.Pinned, lf.PinnedBy = parentSide.Int8SHA256, parent+".json (int8_sha256) of a model registry.json lists"
				}
			}
		}
	}
	if lf.Pinned != "" && !strings.EqualFold(lf.Pinned, lf.SHA256) {
		return nil, fmt.Errorf("sha256 %s does not match %s, which %s pins: the file is not the published model", lf.SHA256, lf.Pinned, lf.PinnedBy)
	}
	if s := lf.Card; s != nil && s.ONNX == base && s.SHA256 != "" && !strings.EqualFold(s.SHA256, lf.SHA256) {
		return nil, fmt.Errorf("sha256 %s does not match %s, which its card %s gives", lf.SHA256, s.SHA256, filepath.Base(lf.CardFile))
	}
	if strict && lf.Pinned == "" {
		return nil, fmt.Errorf("sha256 %s is not pinned by a registry.json beside it, and verification is strict", lf.SHA256)
	}
	return lf, nil
}

// hashModel checks that the model and its external weights are regular
// files within MaxModelBytes and returns the model file's sha256.
func hashModel(path string) (string, int64, error) {
	// Bounded by MaxModelBytes alone here; with its weights below.
	f, fi, err := boundedfile.Open(path, MaxModelBytes)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	size := fi.Size()
	if di, err := os.Stat(path + ".data"); err == nil {
		if !di.Mode().IsRegular() {
			return "", 0, fmt.Errorf("its external weights %s are not a regular file", filepath.Base(path)+".data")
		}
		size += di.Size()
	}
	if size > MaxModelBytes {
		return "", 0, fmt.Errorf("%d bytes with its external weights; learned models are at most %d", size, MaxModelBytes)
	}
	if fi.Size() == 0 {
		return "", 0, errors.New("the file is empty, not an ONNX model")
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, MaxModelBytes+1)); err != nil {
		return "", 0, fmt.Errorf("reading it: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), size, nil
}

func readSidecar(path string) (*Card, string, error) {
	data, err := boundedfile.Read(path, maxCardBytes)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("its card %s: %w", filepath.Base(path), err)
	}
	var s Card
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, "", fmt.Errorf("its card %s is not valid JSON: %w", filepath.Base(path), err)
	}
	return &s, path, nil
}

func readRegistry(path string) ([]RegistryEntry, error) {
	data, err := boundedfile.Read(path, maxCardBytes)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("registry.json beside it: %w", err)
	}
	var r struct {
		Models []RegistryEntry `json:"models"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("registry.json beside it is not valid JSON: %w", err)
	}
	return r.Models, nil
}

// maxCardBytes bounds a card or registry file.
const maxCardBytes = 16 << 20
