package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Format is one of libvmaf's output file formats.
type Format int

const (
	XML  Format = iota // libvmaf's default
	JSON               // "version", "fps", "frames", "pooled_metrics", "aggregate_metrics"
	CSV                // one row per frame, one column per metric
	Sub                // MicroDVD subtitles, one line per frame
)

func (f Format) String() string {
	switch f {
	case XML:
		return "xml"
	case JSON:
		return "json"
	case CSV:
		return "csv"
	case Sub:
		return "sub"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat reads "xml", "json", "csv" or "sub".
func ParseFormat(s string) (Format, error) {
	for _, f := range []Format{XML, JSON, CSV, Sub} {
		if s == f.String() {
			return f, nil
		}
	}
	return 0, fmt.Errorf("report: unknown output format %q (want xml, json, csv or sub)", s)
}

// fractionZeros counts the zeros right after the decimal point of x's
// fractional part. libvmaf prints a value with 16 decimals instead of 6 when
// this count exceeds 6, so that tiny fractions do not print as zero.
// Magnitudes beyond 32-bit int range have no counted zeros there (the C
// conversion saturates and the difference is at least 1), and NaN has none.
func fractionZeros(x float64) int {
	x = math.Abs(x)
	if !(x < 1<<31) {
		return 0
	}
	frac := x - math.Trunc(x)
	n := 0
	for frac < 1 && frac != 0 {
		frac *= 10
		n++
	}
	return n
}

// appendNumber appends x the way libvmaf's printf("%.6f") or ("%.16f")
// shows it, including C's spelling of the non-finite values.
func appendNumber(b []byte, x float64) []byte {
	switch {
	case math.IsNaN(x):
		if math.Signbit(x) {
			return append(b, "-nan"...)
		}
		return append(b, "nan"...)
	case math.IsInf(x, 1):
		return append(b, "inf"...)
	case math.IsInf(x, -1):
		return append(b, "-inf"...)
	}
	prec := 6
	if fractionZeros(x) > 6 {
		prec = 16
	}
	return strconv.AppendFloat(b, x, 'f', prec, 64)
}

// appendJSONNumber is appendNumber with JSON's null for non-finite values.
func appendJSONNumber(b []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(b, "null"...)
	}
	return appendNumber(b, x)
}

// appendFPS formats the processing rate with two decimals as libvmaf does.
func appendFPS(b []byte, fps float64, json bool) []byte {
	if math.IsNaN(fps) || math.IsInf(fps, 0) {
		if json {
			return append(b, "null"...)
		}
		return appendNumber(b, fps)
	}
	return strconv.AppendFloat(b, fps, 'f', 2, 64)
}

// appendJSONString appends s as a quoted JSON string. Metric names are
// plain identifiers, for which this is the bare name in quotes.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// appendCSVField appends s as one CSV field, quoted only when it holds a
// separator, a quote or a line break (RFC 4180).
func appendCSVField(b []byte, s string) []byte {
	if !strings.ContainsAny(s, ",\"\r\n") {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// appendXMLAttr appends s escaped for a double-quoted XML attribute value.
func appendXMLAttr(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			b = append(b, "&amp;"...)
		case '<':
			b = append(b, "&lt;"...)
		case '>':
			b = append(b, "&gt;"...)
		case '"':
			b = append(b, "&quot;"...)
		default:
			b = append(b, c)
		}
	}
	return b
}
