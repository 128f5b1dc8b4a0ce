package vmaf

import (
	"fmt"
	"strings"
)

// MaxModelNameBytes bounds a model's name (its metric key).
const MaxModelNameBytes = 256

// reservedModelNames are the field names the results files and the
// element's messages use beside the metrics, compared without case: a
// model named so would overwrite the field (a frame message's "type") or
// repeat it (an XML frame's frameNum attribute).
var reservedModelNames = []string{
	"frame", "frameNum", "frames", "Frame", "metrics", "pooled_metrics", "aggregate_metrics", "fps", "version",
	"params", "type", "index", "score", "timestamp", "duration", "model", "pooled", "name", "method",
}

// CheckModelName says why name cannot be a model's metric key, or returns
// nil: a name is data written as a key in every results format and bus
// message, so it is a letter or underscore followed by letters, digits,
// underscores and dots, at most MaxModelNameBytes, and names no feature
// any extractor reports (a model named integer_adm2 would be pooled with
// ADM2) and no field of the results or messages.
func CheckModelName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty model name")
	case len(name) > MaxModelNameBytes:
		return fmt.Errorf("model name of %d bytes; names are at most %d", len(name), MaxModelNameBytes)
	}
	for i, c := range []byte(name) {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '.')) {
			return fmt.Errorf("model name %q: %s; a name is a letter or '_' followed by letters, digits, '_' and '.'", name, badChar(i, c))
		}
	}
	for _, r := range reservedModelNames {
		if strings.EqualFold(name, r) {
			return fmt.Errorf("model name %q is a field of the results and messages; choose another", name)
		}
	}
	if _, ok := FeatureExtractor(name); ok {
		return fmt.Errorf("model name %q is the name of a feature (or of a feature with options); choose another, so that the model's scores are not mixed with it", name)
	}
	return nil
}

func badChar(i int, c byte) string {
	if i == 0 {
		return fmt.Sprintf("it starts with %q", c)
	}
	return fmt.Sprintf("%q at byte %d", c, i)
}
