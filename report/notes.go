package report

// A run's notes (what it did to its inputs: an offset found and skipped)
// and warnings (inputs that do not fit the model, frame rates that
// differ, inputs that ended early) reach a JSON or XML document as
// top-level "notes" and "warnings" arrays of strings (XML <notes> of
// <note message="..."/>, <warnings> of <warning message="..."/>) after
// everything else, each only when it has an entry, so that a run without
// any stays libvmaf's document byte for byte. CSV and subtitles carry
// none.

// AddWarning records a warning about the run for the "warnings" section.
func (w *Writer) AddWarning(msg string) {
	w.warnings = append(w.warnings, msg)
}

// AddNote records what the run did to its inputs for the "notes"
// section.
func (w *Writer) AddNote(msg string) {
	w.notes = append(w.notes, msg)
}

func (w *Writer) appendJSONWarnings(b []byte) []byte {
	b = appendJSONStrings(b, "notes", w.notes)
	return appendJSONStrings(b, "warnings", w.warnings)
}

func appendJSONStrings(b []byte, key string, list []string) []byte {
	if len(list) == 0 {
		return b
	}
	b = append(b, ",\n  \""...)
	b = append(b, key...)
	b = append(b, "\": ["...)
	for i, m := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		b = appendJSONString(b, m)
	}
	return append(b, "\n  ]"...)
}

func (w *Writer) appendXMLWarnings(b []byte) []byte {
	b = appendXMLStrings(b, "note", w.notes)
	return appendXMLStrings(b, "warning", w.warnings)
}

func appendXMLStrings(b []byte, tag string, list []string) []byte {
	if len(list) == 0 {
		return b
	}
	b = append(b, "  <"...)
	b = append(b, tag...)
	b = append(b, "s>\n"...)
	for _, m := range list {
		b = append(b, "    <"...)
		b = append(b, tag...)
		b = append(b, " message=\""...)
		b = appendXMLAttr(b, m)
		b = append(b, "\" />\n"...)
	}
	b = append(b, "  </"...)
	b = append(b, tag...)
	return append(b, "s>\n"...)
}
