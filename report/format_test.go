package report

import (
	"math"
	"testing"
)

func TestAppendNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0.000000"},
		{1, "1.000000"},
		{83.856285, "83.856285"},
		{-2.5, "-2.500000"},
		{0.000005, "0.000005"},                // five zeros: 6 decimals
		{0.0000005, "0.0000005000000000"},     // six zeros, first digit at the 7th place
		{0.00000049, "0.0000004900000000"},    // seven leading zeros: 16 decimals
		{1e-7, "0.0000001000000000"},          // seven leading zeros
		{12.00000001, "12.0000000100000008"},  // the fraction, not the value, decides
		{-1e-9, "-0.0000000010000000"},        // sign ignored when counting
		{1e-300, "0.0000000000000000"},        // 16 decimals of a tiny value
		{3e9 + 1e-8, "3000000000.000000"},     // beyond int range: libvmaf counts no zeros
		{100.0000001, "100.0000000999999941"}, // the binary value, as glibc prints it
		{math.NaN(), "nan"},
		{math.Copysign(math.NaN(), -1), "-nan"},
		{math.Inf(1), "inf"},
		{math.Inf(-1), "-inf"},
	}
	for _, tc := range tests {
		if got := string(appendNumber(nil, tc.in)); got != tc.want {
			t.Errorf("appendNumber(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestAppendJSONNumberNonFinite(t *testing.T) {
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := string(appendJSONNumber(nil, x)); got != "null" {
			t.Errorf("appendJSONNumber(%v) = %q, want null", x, got)
		}
	}
}

func TestEscaping(t *testing.T) {
	tests := []struct {
		fn       func([]byte, string) []byte
		in, want string
	}{
		{appendJSONString, "vmaf_neg", `"vmaf_neg"`},
		{appendJSONString, `a"b\c` + "\n", `"a\"b\\c\u000a"`},
		{appendXMLAttr, "vmaf", "vmaf"},
		{appendXMLAttr, `a<b>&"c"`, "a&lt;b&gt;&amp;&quot;c&quot;"},
		{appendCSVField, "psnr_y", "psnr_y"},
		{appendCSVField, `x,"y"`, `"x,""y"""`},
	}
	for _, tc := range tests {
		if got := string(tc.fn(nil, tc.in)); got != tc.want {
			t.Errorf("escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range []Format{XML, JSON, CSV, Sub} {
		got, err := ParseFormat(f.String())
		if err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f.String(), got, err)
		}
	}
	if _, err := ParseFormat("yaml"); err == nil {
		t.Error("ParseFormat(yaml) gave no error")
	}
}
