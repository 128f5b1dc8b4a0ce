package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

func vectors(name string) string {
	return filepath.Join("..", "..", "tune", "testdata", "bdrate", name+".csv")
}

// TestBDRateCommand runs bd-rate on Netflix's public vectors (see
// tune/bdrate_test.go) and on the curves it must refuse.
func TestBDRateCommand(t *testing.T) {
	tests := []struct {
		args []string
		want float64
	}{
		{[]string{vectors("a"), vectors("b_different")}, 0.0828609163164793},
		{[]string{"--at-perc", "50", vectors("a"), vectors("b_different")}, 0.03800171560649668},
		{[]string{"--at-perc=100", vectors("a"), vectors("b_slight")}, 0.07795646560507974},
		{[]string{vectors("a"), vectors("a")}, 0},
	}
	for _, tc := range tests {
		code, out, errOut := runTune(t, append([]string{"bd-rate", "--json"}, tc.args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errOut)
		}
		var res struct {
			BDRate *float64 `json:"bd_rate"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil || res.BDRate == nil {
			t.Fatalf("%v: output %q: %v", tc.args, out, err)
		}
		if math.Abs(*res.BDRate-tc.want) > 1e-9 {
			t.Errorf("%v: bd_rate %.17g, want %.17g", tc.args, *res.BDRate, tc.want)
		}
	}
}

func TestBDRateCommandRefusals(t *testing.T) {
	tests := []struct {
		args []string
		code int
		says string
	}{
		{[]string{vectors("nonmono1_a"), vectors("jctvc1_b")}, exitError, "not monotonic"},
		{[]string{vectors("a")}, exitUsage, "two files"},
		{[]string{"--at-perc", "120", vectors("a"), vectors("a")}, exitUsage, "between 0 and 100"},
		{[]string{"--min-metric", "99.5", vectors("a"), vectors("a")}, exitError, "do not overlap"},
		{[]string{vectors("a"), "/nonexistent.csv"}, exitError, "nonexistent.csv"},
		{[]string{"--bogus", vectors("a"), vectors("a")}, exitUsage, "unknown option"},
	}
	for _, tc := range tests {
		code, _, errOut := runTune(t, append([]string{"bd-rate"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.says) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d saying %q", tc.args, code, errOut, tc.code, tc.says)
		}
	}
}
