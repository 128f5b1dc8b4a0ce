package main

import (
	"bytes"
	"math"
	"regexp"
	"strings"
	"testing"
)

// logOf builds a log from per-frame metrics; a NaN value stands for null.
func logOf(frames ...map[string]float64) *vmafLog {
	l := &vmafLog{}
	for i, m := range frames {
		l.Frames = append(l.Frames, struct {
			FrameNum int                 `json:"frameNum"`
			Metrics  map[string]*float64 `json:"metrics"`
		}{FrameNum: i, Metrics: map[string]*float64{}})
		for k, v := range m {
			if math.IsNaN(v) {
				l.Frames[i].Metrics[k] = nil
				continue
			}
			l.Frames[i].Metrics[k] = &v
		}
	}
	return l
}

func TestComparisonVerdict(t *testing.T) {
	base := map[string]float64{"vmaf": 80, "integer_adm2": 0.9, "psnr_y": 40}
	with := func(k string, v float64) map[string]float64 {
		m := map[string]float64{}
		for kk, vv := range base {
			m[kk] = vv
		}
		if math.IsInf(v, -1) {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	drop := math.Inf(-1)
	tests := []struct {
		name   string
		want   *vmafLog
		got    *vmafLog
		ignore string
		ok     bool
		output string // must appear in the report
	}{
		{"identical", logOf(base, base), logOf(base, base), "", true, "OK:"},
		{"score within 0.01", logOf(base), logOf(with("vmaf", 80.009)), "", true, "OK:"},
		{"score beyond 0.01", logOf(base), logOf(with("vmaf", 80.011)), "", false, "FAIL"},
		{"feature within 1e-4", logOf(base), logOf(with("integer_adm2", 0.90009)), "", true, "OK:"},
		{"feature beyond 1e-4", logOf(base, base), logOf(base, with("psnr_y", 40.0002)), "", false, "psnr_y"},
		{"both null", logOf(with("psnr_y", math.NaN())), logOf(with("psnr_y", math.NaN())), "", true, "OK:"},
		{"one null", logOf(base), logOf(with("psnr_y", math.NaN())), "", false, "+Inf"},
		{"missing in candidate", logOf(base), logOf(with("psnr_y", drop)), "", false, "missing from vmaf-score"},
		{"missing but ignored", logOf(base), logOf(with("psnr_y", drop)), "^psnr", true, "OK:"},
		{"differing but ignored", logOf(base), logOf(with("psnr_y", 41)), "^psnr", true, "OK:"},
		{"extra in candidate", logOf(with("psnr_y", drop)), logOf(base), "", true, "only in vmaf-score"},
		{"frame count", logOf(base, base), logOf(base), "", false, "scored 2 frames, vmaf-score 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ignore *regexp.Regexp
			if tc.ignore != "" {
				ignore = regexp.MustCompile(tc.ignore)
			}
			c := newComparison(ignore)
			c.add("p", tc.want, tc.got)
			var out bytes.Buffer
			if ok := c.report(&out, tolerances{score: 0.01, feature: 1e-4}); ok != tc.ok {
				t.Errorf("report = %v, want %v\n%s", ok, tc.ok, out.String())
			}
			if !strings.Contains(out.String(), tc.output) {
				t.Errorf("report lacks %q:\n%s", tc.output, out.String())
			}
		})
	}
}

func TestComparisonWorstAcrossPairs(t *testing.T) {
	c := newComparison(nil)
	c.add("a", logOf(map[string]float64{"motion2": 1}), logOf(map[string]float64{"motion2": 1.00002}))
	c.add("b", logOf(map[string]float64{"motion2": 1}, map[string]float64{"motion2": 2}),
		logOf(map[string]float64{"motion2": 1}, map[string]float64{"motion2": 2.00005}))
	w := c.metrics["motion2"]
	if w.pair != "b" || w.frame != 1 || w.n != 3 || math.Abs(w.diff-5e-5) > 1e-12 {
		t.Errorf("worst = %+v, want pair b frame 1 over 3 values, diff 5e-5", *w)
	}
}

func TestCheckStored(t *testing.T) {
	fresh := logOf(map[string]float64{"vmaf": 80.123456, "motion2": 2})
	c := newComparison(nil)
	c.checkStored("same", logOf(map[string]float64{"vmaf": 80.123456, "motion2": 2}), fresh)
	c.checkStored("other", logOf(map[string]float64{"vmaf": 80.2, "motion2": 2}), fresh)
	if c.storedChecked != 2 || len(c.storedDiffer) != 1 || !strings.HasPrefix(c.storedDiffer[0], "other: vmaf") {
		t.Errorf("checked %d, differ %q", c.storedChecked, c.storedDiffer)
	}
}
