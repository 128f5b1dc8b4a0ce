package ffsource

import (
	"fmt"
	"strings"
)

// chainFilter is one filter of a filter graph description as written:
// its name and its whole text (labels, name, arguments).
type chainFilter struct {
	name, text string
	labelled   bool // has [link labels]
	sep        byte // the separator after it: ',', ';' or 0 at the end
}

// splitChain splits a filter graph description into its filters the way
// FFmpeg's parser reads it: ',' and ';' separate filters except inside
// '...' quotes or after a '\' escape, and [labels] surround a filter.
func splitChain(desc string) ([]chainFilter, error) {
	var (
		out    []chainFilter
		start  int
		quoted bool
	)
	for i := 0; i <= len(desc); i++ {
		if i < len(desc) {
			c := desc[i]
			switch {
			case c == '\\' && !quoted:
				i++
				continue
			case c == '\'':
				quoted = !quoted
				continue
			case quoted || (c != ',' && c != ';'):
				continue
			}
		}
		if quoted {
			return nil, fmt.Errorf("filter %q: unterminated quote", desc)
		}
		f, err := parseChainFilter(desc[start:i])
		if err != nil {
			return nil, err
		}
		if i < len(desc) {
			f.sep = desc[i]
		}
		out = append(out, f)
		start = i + 1
	}
	return out, nil
}

func parseChainFilter(text string) (chainFilter, error) {
	f := chainFilter{text: strings.TrimSpace(text)}
	rest := f.text
	for strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return f, fmt.Errorf("filter %q: unterminated [label]", f.text)
		}
		f.labelled = true
		rest = strings.TrimSpace(rest[end+1:])
	}
	name := rest
	if i := strings.IndexAny(name, "=[@ \t\n"); i >= 0 {
		name = name[:i]
	}
	if strings.Contains(rest, "[") {
		f.labelled = true // an output label, or a bracket in the arguments
	}
	if name == "" {
		return f, fmt.Errorf("empty filter in %q", text)
	}
	f.name = name
	return f, nil
}

// linear reports whether the filters form one chain without labels,
// where each prefix is itself a complete chain.
func linear(chain []chainFilter) bool {
	for _, f := range chain {
		if f.labelled || f.sep == ';' {
			return false
		}
	}
	return true
}

func joinChain(chain []chainFilter) string {
	texts := make([]string, len(chain))
	for i, f := range chain {
		texts[i] = f.text
	}
	return strings.Join(texts, ",")
}

// FilterNames are the names of the filters a filter graph description
// uses, as FFmpeg's parser reads them; an error when it is malformed.
func FilterNames(desc string) ([]string, error) {
	chain, err := splitChain(desc)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(chain))
	for i, f := range chain {
		names[i] = f.name
	}
	return names, nil
}
