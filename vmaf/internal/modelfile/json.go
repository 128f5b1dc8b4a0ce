package modelfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// The helpers below check a value's JSON kind before decoding it, so an
// error names the field and what it holds instead of quoting Go types.

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
