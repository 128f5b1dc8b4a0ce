package modelfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
)

// Decode reads libvmaf's JSON model format: an object with a
// "model_dict", or a collection whose members are keyed "0", "1", ... in
// order, each an object with a "model_dict". Errors name the offending
// field by its path in the file, e.g. "0".model_dict.slopes[2].
func Decode(data []byte) ([]Dict, error) {
	top, err := jsonObject(data, "model file")
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// The syntax error's text quotes the file's bytes; a model
			// path can name any file, so only the offset is given.
			return nil, fmt.Errorf("model file is not valid JSON (syntax error at byte %d)", se.Offset)
		}
		return nil, err
	}
	if raw, ok := top["model_dict"]; ok {
		d, err := decodeModelDict(raw, "model_dict")
		if err != nil {
			return nil, err
		}
		return []Dict{d}, nil
	}
	n := 0
	for ; ; n++ {
		if _, ok := top[strconv.Itoa(n)]; !ok {
			break
		}
	}
	if n < 2 {
		return nil, fmt.Errorf(`model file has neither "model_dict" nor collection members "0", "1", ...`)
	}
	if n > MaxMembers {
		return nil, fmt.Errorf("collection has %d members, more than the %d supported", n, MaxMembers)
	}
	for k := range top {
		if i, err := strconv.Atoi(k); err == nil && i >= n && strconv.Itoa(i) == k {
			return nil, fmt.Errorf("collection has member %q but no member %q", k, strconv.Itoa(n))
		}
	}
	dicts := make([]Dict, n)
	for i := range dicts {
		at := strconv.Quote(strconv.Itoa(i))
		member, err := jsonObject(top[strconv.Itoa(i)], at)
		if err != nil {
			return nil, err
		}
		raw, ok := member["model_dict"]
		if !ok {
			return nil, fmt.Errorf(`%s: no "model_dict"`, at)
		}
		if dicts[i], err = decodeModelDict(raw, at+".model_dict"); err != nil {
			return nil, err
		}
	}
	return dicts, nil
}

func decodeModelDict(raw json.RawMessage, at string) (Dict, error) {
	var d Dict
	obj, err := jsonObject(raw, at)
	if err != nil {
		return d, err
	}
	for _, key := range slices.Sorted(maps.Keys(obj)) {
		v, field := obj[key], at+"."+key
		switch key {
		case "model_type":
			d.ModelType, err = jsonString(v, field)
		case "norm_type":
			d.NormType, err = jsonString(v, field)
		case "feature_names":
			d.FeatureNames, err = jsonStrings(v, field)
		case "feature_opts_dicts":
			d.FeatureOpts, err = decodeOptsDicts(v, field)
		case "slopes":
			d.Slopes, err = jsonNumbers(v, field)
		case "intercepts":
			d.Intercepts, err = jsonNumbers(v, field)
		case "score_clip":
			if d.Clip, err = jsonNumbers(v, field); err == nil && len(d.Clip) != 2 {
				err = fmt.Errorf("%s: has %d values, want 2 (min, max)", field, len(d.Clip))
			}
		case "score_transform":
			d.Transform, err = decodeTransform(v, field)
		case "chroma_correction_parameter":
			d.Chroma.Set = true
			d.Chroma.V, err = jsonNumber(v, field)
		case "model":
			var text string
			if text, err = jsonString(v, field); err == nil {
				d.HasSVM = true
				if d.SVM, err = parseSVM(text); err != nil {
					err = fmt.Errorf("%s: %w", field, err)
				}
			}
		}
		if err != nil {
			return d, err
		}
	}
	return d, nil
}

func decodeOptsDicts(raw json.RawMessage, at string) ([][]FeatureOpt, error) {
	elems, err := jsonArray(raw, at)
	if err != nil {
		return nil, err
	}
	if len(elems) > MaxFeatures {
		return nil, fmt.Errorf("%s: has %d entries, more than libvmaf's %d features", at, len(elems), MaxFeatures)
	}
	out := make([][]FeatureOpt, len(elems))
	for i, e := range elems {
		if out[i], err = decodeOpts(e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decodeOpts reads one options object in file order, normalising values
// as libvmaf's dictionary does. A key given twice must agree with itself.
func decodeOpts(raw json.RawMessage, at string) ([]FeatureOpt, error) {
	if jsonKind(raw) != '{' {
		return nil, fmt.Errorf("%s: want an object, got %s", at, describeJSON(raw))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: %w", at, err)
	}
	var opts []FeatureOpt
	seen := map[string]int{} // key -> index in opts
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", at, err)
		}
		key, _ := kt.(string)
		vt, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", at, key, err)
		}
		var val string
		switch v := vt.(type) {
		case string:
			val = v
		case bool:
			val = strconv.FormatBool(v)
		case json.Number:
			if val, err = normaliseNumber(string(v)); err != nil {
				return nil, fmt.Errorf("%s.%s: %w", at, key, err)
			}
		default:
			return nil, fmt.Errorf("%s.%s: want a number, boolean or string", at, key)
		}
		if i, ok := seen[key]; ok {
			if prev := opts[i].Val; prev != val {
				return nil, fmt.Errorf("%s: %s given twice, as %s and %s", at, key, prev, val)
			}
			continue
		}
		seen[key] = len(opts)
		opts = append(opts, FeatureOpt{key, val})
	}
	return opts, nil
}

// normaliseNumber rewrites a numeric option the way libvmaf stores it:
// parsed as a C float, printed with %g (six significant digits).
func normaliseNumber(text string) (string, error) {
	v, err := strconv.ParseFloat(text, 32)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return "", fmt.Errorf("%s is out of range", text)
	}
	return FormatG(v), nil
}

// FormatG formats v like C's printf("%g").
func FormatG(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

func decodeTransform(raw json.RawMessage, at string) (*Transform, error) {
	obj, err := jsonObject(raw, at)
	if err != nil {
		return nil, err
	}
	t := &Transform{}
	for _, key := range slices.Sorted(maps.Keys(obj)) {
		v, field := obj[key], at+"."+key
		switch key {
		case "enabled":
			if t.Enabled, err = jsonBool(v, field); err != nil {
				return nil, err
			}
		case "p0", "p1", "p2":
			p := &t.P[key[1]-'0']
			if jsonKind(v) == 'n' {
				continue
			}
			p.Set = true
			if p.V, err = jsonNumber(v, field); err != nil {
				return nil, err
			}
		case "knots":
			if jsonKind(v) == 'n' {
				continue
			}
			t.HasKnots = true
			if t.Knots, err = decodeKnots(v, field); err != nil {
				return nil, err
			}
		case "out_lte_in", "out_gte_in":
			// libvmaf wants the string "true"; any other string means false.
			s, err := jsonString(v, field)
			if err != nil {
				return nil, err
			}
			if key == "out_lte_in" {
				t.OutLTEIn = s == "true"
			} else {
				t.OutGTEIn = s == "true"
			}
		}
	}
	return t, nil
}

func decodeKnots(raw json.RawMessage, at string) ([][2]float64, error) {
	elems, err := jsonArray(raw, at)
	if err != nil {
		return nil, err
	}
	if len(elems) > MaxKnots {
		return nil, fmt.Errorf("%s: has %d knots, more than libvmaf's %d", at, len(elems), MaxKnots)
	}
	knots := make([][2]float64, len(elems))
	for i, e := range elems {
		field := fmt.Sprintf("%s[%d]", at, i)
		xy, err := jsonNumbers(e, field)
		if err != nil {
			return nil, err
		}
		if len(xy) != 2 {
			return nil, fmt.Errorf("%s: has %d values, want 2 (x, y)", field, len(xy))
		}
		knots[i] = [2]float64{xy[0], xy[1]}
	}
	return knots, nil
}
