package modelfile

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// parseSVM reads libsvm's text model format: a header of keyword/value
// lines up to a line "SV", then one support vector per line, its
// coefficient followed by index:value pairs.
func parseSVM(text string) (SVM, error) {
	var d SVM
	header, body, ok := cutSVToken(text)
	if !ok {
		return d, fmt.Errorf("no SV line ending the header")
	}
	total, err := d.parseHeader(strings.Fields(header))
	if err != nil {
		return d, err
	}
	lines := strings.Split(body, "\n")
	if len(lines) < total {
		return d, fmt.Errorf("total_sv is %d but only %d support vector lines follow", total, len(lines))
	}
	d.Coef = make([]float64, total)
	d.SV = make([][]float64, total)
	for i := range total {
		if d.Coef[i], d.SV[i], err = parseSVLine(lines[i]); err != nil {
			return d, fmt.Errorf("support vector %d: %w", i, err)
		}
	}
	return d, nil
}

// cutSVToken splits text at the first whitespace-delimited token "SV";
// the body starts on the line after it.
func cutSVToken(text string) (header, body string, ok bool) {
	for i := 0; i+2 <= len(text); i++ {
		if text[i:i+2] != "SV" || (i > 0 && !isSpace(text[i-1])) || (i+2 < len(text) && !isSpace(text[i+2])) {
			continue
		}
		rest := text[i+2:]
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			rest = rest[j+1:]
		} else {
			rest = ""
		}
		return text[:i], rest, true
	}
	return "", "", false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// parseHeader fills d from the header tokens and returns total_sv.
func (d *SVM) parseHeader(tok []string) (int, error) {
	total, nrClass := -1, 0
	seen := map[string]bool{}
	next := func(key string) (string, error) {
		if len(tok) == 0 {
			return "", fmt.Errorf("%s: missing value", key)
		}
		v := tok[0]
		tok = tok[1:]
		return v, nil
	}
	num := func(key string) (float64, error) {
		v, err := next(key)
		if err != nil {
			return 0, err
		}
		return parseFinite(v, key)
	}
	count := func(key string) (int, error) {
		v, err := next(key)
		if err != nil {
			return 0, err
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, fmt.Errorf("%s: %q is not an integer", key, v)
		}
		return n, nil
	}
	for len(tok) > 0 {
		key := tok[0]
		tok = tok[1:]
		if seen[key] {
			return 0, fmt.Errorf("header: %s given twice", key)
		}
		seen[key] = true
		var err error
		switch key {
		case "svm_type":
			d.SVMType, err = next(key)
		case "kernel_type":
			d.KernelType, err = next(key)
		case "gamma":
			d.Gamma, err = num(key)
		case "degree":
			_, err = count(key)
		case "coef0":
			_, err = num(key)
		case "nr_class":
			if nrClass, err = count(key); err == nil && nrClass != 2 {
				err = fmt.Errorf("nr_class is %d, want 2 (a regression model)", nrClass)
			}
		case "total_sv":
			if total, err = count(key); err == nil && total < 0 {
				err = fmt.Errorf("total_sv is %d", total)
			}
		case "rho", "probA", "probB":
			// With two classes there is one decision function, so one value.
			if nrClass == 0 {
				return 0, fmt.Errorf("header: %s before nr_class", key)
			}
			var v float64
			if v, err = num(key); key == "rho" {
				d.Rho = v
			}
		case "label", "nr_sv":
			if nrClass == 0 {
				return 0, fmt.Errorf("header: %s before nr_class", key)
			}
			for range nrClass {
				if _, err = count(key); err != nil {
					break
				}
			}
		default:
			return 0, fmt.Errorf("header: unknown keyword %q", key)
		}
		if err != nil {
			return 0, err
		}
	}
	switch {
	case d.SVMType != "nu_svr":
		return 0, fmt.Errorf("svm_type %q not supported (want nu_svr)", d.SVMType)
	case d.KernelType != "rbf":
		return 0, fmt.Errorf("kernel_type %q not supported (want rbf)", d.KernelType)
	case !seen["gamma"]:
		return 0, fmt.Errorf("header has no gamma")
	case !seen["rho"]:
		return 0, fmt.Errorf("header has no rho")
	case total < 0:
		return 0, fmt.Errorf("header has no total_sv")
	}
	return total, nil
}

// parseSVLine reads "coef index:value index:value ...".
func parseSVLine(line string) (float64, []float64, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return 0, nil, fmt.Errorf("empty line")
	}
	coef, err := parseFinite(f[0], "coefficient")
	if err != nil {
		return 0, nil, err
	}
	var row []float64
	for _, pair := range f[1:] {
		is, vs, ok := strings.Cut(pair, ":")
		if !ok {
			return 0, nil, fmt.Errorf("%q is not index:value", pair)
		}
		idx, err := strconv.Atoi(is)
		if err != nil || idx <= len(row) || idx > MaxFeatures {
			return 0, nil, fmt.Errorf("bad index in %q (want increasing indices in 1..%d)", pair, MaxFeatures)
		}
		v, err := parseFinite(vs, "value")
		if err != nil {
			return 0, nil, fmt.Errorf("index %d: %w", idx, err)
		}
		// libsvm adds x² for an index a support vector leaves out, which is
		// exactly (x-0)², so a zero stands in for the gap.
		for len(row) < idx-1 {
			row = append(row, 0)
		}
		row = append(row, v)
	}
	return coef, row, nil
}

// parseFinite parses a decimal number, rejecting NaN and infinities.
func parseFinite(s, what string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s: %q is not a finite number", what, s)
	}
	return v, nil
}
