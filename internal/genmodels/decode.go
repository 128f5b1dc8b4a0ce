package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The decoder reads only trusted model files; package vmaf's own reader is
// the strict one, and its tests check that both agree on every built-in.

// dict mirrors package vmaf's modelDict. Slices that are nil there when
// the file lacks a field are nil here too.
type dict struct {
	modelType, normType string
	featureNames        []string
	featureOpts         [][]opt
	slopes, intercepts  []float64
	clip                []float64
	transform           *transform
	chroma              *float64
	svm                 *svm
}

type opt struct{ key, val string }

type transform struct {
	enabled            bool
	p                  [3]*float64
	knots              [][2]float64
	hasKnots           bool
	outLTEIn, outGTEIn bool
}

type svm struct {
	svmType, kernelType string
	gamma, rho          float64
	coef                []float64
	sv                  [][]float64
}

// decodeFile returns a file's model_dict, or its collection members'.
func decodeFile(data []byte) ([]dict, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, err
	}
	if raw, ok := top["model_dict"]; ok {
		d, err := decodeDict(raw)
		return []dict{d}, err
	}
	var dicts []dict
	for i := 0; ; i++ {
		raw, ok := top[strconv.Itoa(i)]
		if !ok {
			break
		}
		var member struct {
			ModelDict json.RawMessage `json:"model_dict"`
		}
		if err := json.Unmarshal(raw, &member); err != nil {
			return nil, fmt.Errorf("member %d: %w", i, err)
		}
		d, err := decodeDict(member.ModelDict)
		if err != nil {
			return nil, fmt.Errorf("member %d: %w", i, err)
		}
		dicts = append(dicts, d)
	}
	if len(dicts) == 0 {
		return nil, fmt.Errorf("no model_dict and no collection members")
	}
	return dicts, nil
}

func decodeDict(raw json.RawMessage) (dict, error) {
	var d dict
	var f map[string]json.RawMessage
	if err := json.Unmarshal(raw, &f); err != nil {
		return d, err
	}
	for key, v := range f {
		var err error
		switch key {
		case "model_type":
			err = json.Unmarshal(v, &d.modelType)
		case "norm_type":
			err = json.Unmarshal(v, &d.normType)
		case "feature_names":
			err = json.Unmarshal(v, &d.featureNames)
		case "feature_opts_dicts":
			d.featureOpts, err = decodeOptsDicts(v)
		case "slopes":
			d.slopes, err = numbers(v)
		case "intercepts":
			d.intercepts, err = numbers(v)
		case "score_clip":
			d.clip, err = numbers(v)
		case "score_transform":
			d.transform, err = decodeTransform(v)
		case "chroma_correction_parameter":
			err = json.Unmarshal(v, &d.chroma)
		case "model":
			var text string
			if err = json.Unmarshal(v, &text); err == nil {
				d.svm, err = parseSVM(text)
			}
		}
		if err != nil {
			return d, fmt.Errorf("%s: %w", key, err)
		}
	}
	return d, nil
}

// numbers decodes an array of numbers, never to a nil slice.
func numbers(raw json.RawMessage) ([]float64, error) {
	v := []float64{}
	return v, json.Unmarshal(raw, &v)
}

// decodeOptsDicts keeps each dictionary's entries in file order, with
// values as libvmaf stores them: numbers at float precision printed with
// %g, booleans as "true"/"false".
func decodeOptsDicts(raw json.RawMessage) ([][]opt, error) {
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return nil, err
	}
	out := make([][]opt, len(elems))
	for i, e := range elems {
		dec := json.NewDecoder(bytes.NewReader(e))
		dec.UseNumber()
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := dec.Token()
			if err != nil {
				return nil, err
			}
			var val string
			switch v := v.(type) {
			case string:
				val = v
			case bool:
				val = strconv.FormatBool(v)
			case json.Number:
				f, err := strconv.ParseFloat(string(v), 32)
				if err != nil {
					return nil, err
				}
				val = strconv.FormatFloat(f, 'g', 6, 64)
			default:
				return nil, fmt.Errorf("option %v: unsupported value", k)
			}
			out[i] = append(out[i], opt{k.(string), val})
		}
	}
	return out, nil
}

func decodeTransform(raw json.RawMessage) (*transform, error) {
	var f map[string]json.RawMessage
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, err
	}
	t := &transform{}
	for key, v := range f {
		var err error
		switch key {
		case "enabled":
			err = json.Unmarshal(v, &t.enabled)
		case "p0", "p1", "p2":
			err = json.Unmarshal(v, &t.p[key[1]-'0'])
		case "knots":
			var knots *[][2]float64
			if err = json.Unmarshal(v, &knots); err == nil && knots != nil {
				t.hasKnots, t.knots = true, *knots
				if t.knots == nil {
					t.knots = [][2]float64{}
				}
			}
		case "out_lte_in", "out_gte_in":
			var s string
			err = json.Unmarshal(v, &s)
			if key == "out_lte_in" {
				t.outLTEIn = s == "true"
			} else {
				t.outGTEIn = s == "true"
			}
		}
		if err != nil {
			return nil, fmt.Errorf("score_transform.%s: %w", key, err)
		}
	}
	return t, nil
}

// parseSVM reads libsvm's text format: keyword/value header up to "SV",
// then per line a coefficient and index:value pairs, stored densely.
func parseSVM(text string) (*svm, error) {
	header, body, ok := strings.Cut(text, "SV\n")
	if !ok {
		return nil, fmt.Errorf("no SV line")
	}
	s := &svm{}
	total := 0
	tok := strings.Fields(header)
	for i := 0; i+1 < len(tok); i += 2 {
		var err error
		switch tok[i] {
		case "svm_type":
			s.svmType = tok[i+1]
		case "kernel_type":
			s.kernelType = tok[i+1]
		case "gamma":
			s.gamma, err = strconv.ParseFloat(tok[i+1], 64)
		case "rho":
			s.rho, err = strconv.ParseFloat(tok[i+1], 64)
		case "total_sv":
			total, err = strconv.Atoi(tok[i+1])
		case "nr_class":
		default:
			return nil, fmt.Errorf("unexpected header keyword %q", tok[i])
		}
		if err != nil {
			return nil, err
		}
	}
	lines := strings.Split(body, "\n")
	if len(lines) < total {
		return nil, fmt.Errorf("%d support vectors, want %d", len(lines), total)
	}
	s.coef = make([]float64, total)
	s.sv = make([][]float64, total)
	for i, line := range lines[:total] {
		f := strings.Fields(line)
		if len(f) == 0 {
			return nil, fmt.Errorf("support vector %d: empty", i)
		}
		var err error
		if s.coef[i], err = strconv.ParseFloat(f[0], 64); err != nil {
			return nil, err
		}
		var row []float64
		for _, pair := range f[1:] {
			is, vs, _ := strings.Cut(pair, ":")
			idx, err := strconv.Atoi(is)
			if err != nil || idx <= len(row) {
				return nil, fmt.Errorf("support vector %d: bad index in %q", i, pair)
			}
			v, err := strconv.ParseFloat(vs, 64)
			if err != nil {
				return nil, err
			}
			for len(row) < idx-1 {
				row = append(row, 0)
			}
			row = append(row, v)
		}
		s.sv[i] = row
	}
	return s, nil
}
