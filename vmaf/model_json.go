package vmaf

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

// maxMembers bounds a collection so prediction can keep member scores on
// the stack.
const maxMembers = 256

// maxKnots is libvmaf's limit on score_transform knots.
const maxKnots = 10

// decodeModelFile reads libvmaf's JSON model format: an object with a
// "model_dict", or a collection whose members are keyed "0", "1", ... in
// order, each an object with a "model_dict".
func decodeModelFile(data []byte) ([]modelDict, error) {
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
		return []modelDict{d}, nil
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
	if n > maxMembers {
		return nil, fmt.Errorf("collection has %d members, more than the %d supported", n, maxMembers)
	}
	for k := range top {
		if i, err := strconv.Atoi(k); err == nil && i >= n && strconv.Itoa(i) == k {
			return nil, fmt.Errorf("collection has member %q but no member %q", k, strconv.Itoa(n))
		}
	}
	dicts := make([]modelDict, n)
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

func decodeModelDict(raw json.RawMessage, at string) (modelDict, error) {
	var d modelDict
	obj, err := jsonObject(raw, at)
	if err != nil {
		return d, err
	}
	for _, key := range slices.Sorted(maps.Keys(obj)) {
		v, field := obj[key], at+"."+key
		switch key {
		case "model_type":
			d.modelType, err = jsonString(v, field)
		case "norm_type":
			d.normType, err = jsonString(v, field)
		case "feature_names":
			d.featureNames, err = jsonStrings(v, field)
		case "feature_opts_dicts":
			d.featureOpts, err = decodeOptsDicts(v, field)
		case "slopes":
			d.slopes, err = jsonNumbers(v, field)
		case "intercepts":
			d.intercepts, err = jsonNumbers(v, field)
		case "score_clip":
			if d.clip, err = jsonNumbers(v, field); err == nil && len(d.clip) != 2 {
				err = fmt.Errorf("%s: has %d values, want 2 (min, max)", field, len(d.clip))
			}
		case "score_transform":
			d.transform, err = decodeTransform(v, field)
		case "chroma_correction_parameter":
			d.chroma.set = true
			d.chroma.v, err = jsonNumber(v, field)
		case "model":
			var text string
			if text, err = jsonString(v, field); err == nil {
				d.hasSVM = true
				if d.svm, err = parseSVM(text); err != nil {
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

func decodeOptsDicts(raw json.RawMessage, at string) ([][]featureOpt, error) {
	elems, err := jsonArray(raw, at)
	if err != nil {
		return nil, err
	}
	if len(elems) > maxFeatures {
		return nil, fmt.Errorf("%s: has %d entries, more than libvmaf's %d features", at, len(elems), maxFeatures)
	}
	out := make([][]featureOpt, len(elems))
	for i, e := range elems {
		if out[i], err = decodeOpts(e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decodeOpts reads one options object in file order, normalising values
// as libvmaf's dictionary does. A key given twice must agree with itself.
func decodeOpts(raw json.RawMessage, at string) ([]featureOpt, error) {
	if jsonKind(raw) != '{' {
		return nil, fmt.Errorf("%s: want an object, got %s", at, describeJSON(raw))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: %w", at, err)
	}
	var opts []featureOpt
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
			if prev := opts[i].val; prev != val {
				return nil, fmt.Errorf("%s: %s given twice, as %s and %s", at, key, prev, val)
			}
			continue
		}
		seen[key] = len(opts)
		opts = append(opts, featureOpt{key, val})
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
	return formatG(v), nil
}

// formatG formats v like C's printf("%g").
func formatG(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

func optValue(opts []featureOpt, key string) (string, bool) {
	for _, o := range opts {
		if o.key == key {
			return o.val, true
		}
	}
	return "", false
}

func decodeTransform(raw json.RawMessage, at string) (*transformDict, error) {
	obj, err := jsonObject(raw, at)
	if err != nil {
		return nil, err
	}
	t := &transformDict{}
	for _, key := range slices.Sorted(maps.Keys(obj)) {
		v, field := obj[key], at+"."+key
		switch key {
		case "enabled":
			if t.enabled, err = jsonBool(v, field); err != nil {
				return nil, err
			}
		case "p0", "p1", "p2":
			p := &t.p[key[1]-'0']
			if jsonKind(v) == 'n' {
				continue
			}
			p.set = true
			if p.v, err = jsonNumber(v, field); err != nil {
				return nil, err
			}
		case "knots":
			if jsonKind(v) == 'n' {
				continue
			}
			t.hasKnots = true
			if t.knots, err = decodeKnots(v, field); err != nil {
				return nil, err
			}
		case "out_lte_in", "out_gte_in":
			// libvmaf wants the string "true"; any other string means false.
			s, err := jsonString(v, field)
			if err != nil {
				return nil, err
			}
			if key == "out_lte_in" {
				t.outLTEIn = s == "true"
			} else {
				t.outGTEIn = s == "true"
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
	if len(elems) > maxKnots {
		return nil, fmt.Errorf("%s: has %d knots, more than libvmaf's %d", at, len(elems), maxKnots)
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

// jsonKind returns the first byte of a JSON value: '{', '[', '"', 't',
// 'f', 'n', or a digit or '-' for numbers.
func jsonKind(raw []byte) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

// describeJSON names a value's kind for error messages.
func describeJSON(raw []byte) string {
	switch jsonKind(raw) {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func jsonObject(raw []byte, at string) (map[string]json.RawMessage, error) {
	if jsonKind(raw) != '{' {
		if !json.Valid(raw) {
			return nil, json.Unmarshal(raw, new(any))
		}
		return nil, fmt.Errorf("%s: want an object, got %s", at, describeJSON(raw))
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	return m, nil
}

func jsonArray(raw []byte, at string) ([]json.RawMessage, error) {
	if jsonKind(raw) != '[' {
		return nil, fmt.Errorf("%s: want an array, got %s", at, describeJSON(raw))
	}
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("%s: %w", at, err)
	}
	return a, nil
}

func jsonString(raw []byte, at string) (string, error) {
	var s string
	if jsonKind(raw) != '"' {
		return "", fmt.Errorf("%s: want a string, got %s", at, describeJSON(raw))
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s: %w", at, err)
	}
	return s, nil
}

func jsonBool(raw []byte, at string) (bool, error) {
	switch k := jsonKind(raw); k {
	case 't', 'f':
		return k == 't', nil
	}
	return false, fmt.Errorf("%s: want true or false, got %s", at, describeJSON(raw))
}

func jsonNumber(raw []byte, at string) (float64, error) {
	switch jsonKind(raw) {
	case '{', '[', '"', 't', 'f', 'n', 0:
		return 0, fmt.Errorf("%s: want a number, got %s", at, describeJSON(raw))
	}
	text := string(bytes.TrimSpace(raw))
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s: %s is not a finite number", at, text)
	}
	return v, nil
}

func jsonStrings(raw []byte, at string) ([]string, error) {
	elems, err := jsonArray(raw, at)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		if out[i], err = jsonString(e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func jsonNumbers(raw []byte, at string) ([]float64, error) {
	elems, err := jsonArray(raw, at)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(elems))
	for i, e := range elems {
		if out[i], err = jsonNumber(e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}
