package report

// A run's warnings (inputs that do not fit the model, frame rates that
// differ, inputs that ended early) reach a JSON or XML document as a
// top-level "warnings" array of strings (XML <warnings> of <warning
// message="..."/>) after everything else, and only when there is one, so
// that a run without any stays libvmaf's document byte for byte. CSV and
// subtitles carry none.

// AddWarning records a warning about the run for the "warnings" section.
func (w *Writer) AddWarning(msg string) {
	w.warnings = append(w.warnings, msg)
}

func (w *Writer) appendJSONWarnings(b []byte) []byte {
	if len(w.warnings) == 0 {
		return b
	}
	b = append(b, ",\n  \"warnings\": ["...)
	for i, m := range w.warnings {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		b = appendJSONString(b, m)
	}
	return append(b, "\n  ]"...)
}

func (w *Writer) appendXMLWarnings(b []byte) []byte {
	if len(w.warnings) == 0 {
		return b
	}
	b = append(b, "  <warnings>\n"...)
	for _, m := range w.warnings {
		b = append(b, "    <warning message=\""...)
		b = appendXMLAttr(b, m)
		b = append(b, "\" />\n"...)
	}
	return append(b, "  </warnings>\n"...)
}
