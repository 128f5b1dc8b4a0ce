package report

import "strings"

// section is a part of the document of the caller's own, after libvmaf's
// (and the analytics'): a JSON value, written as the key Name's value in
// JSON and as the text of element Name in XML, in a CDATA block, so that
// readers of libvmaf's schema skip it. CSV has no room for one.
type section struct {
	name string
	raw  []byte
}

// SetSection adds (or replaces) the document's own section: raw, a JSON
// value, under name. It is written with the trailer, so a file on disk
// holds it from the next commit on. A CSV document leaves it out.
func (w *Writer) SetSection(name string, raw []byte) {
	w.section = &section{name: name, raw: raw}
}

func (w *Writer) appendSection(b []byte) []byte {
	sec := w.section
	if sec == nil {
		return b
	}
	switch w.opts.Format {
	case JSON:
		b = append(b, ",\n  "...)
		b = appendJSONString(b, sec.name)
		b = append(b, ": "...)
		b = append(b, sec.raw...)
	case XML:
		b = append(b, "  <"...)
		b = append(b, sec.name...)
		b = append(b, "><![CDATA["...)
		// A CDATA block ends at the first "]]>"; one inside the value is
		// split across two blocks.
		b = append(b, strings.ReplaceAll(string(sec.raw), "]]>", "]]]]><![CDATA[>")...)
		b = append(b, "]]></"...)
		b = append(b, sec.name...)
		b = append(b, ">\n"...)
	}
	return b
}
