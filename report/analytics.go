package report

import (
	"strconv"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
)

// The live analytics (package analytics) reach a document in three ways,
// each only when asked, so that a default document stays libvmaf's byte
// for byte:
//
//   - Options.Percentiles: each model score's pooled entry gains a key per
//     percentile (PercentileKey) after libvmaf's four; in XML extra
//     attributes of its <metric>. A model score is the metric named by a
//     model's key (vmaf, vmaf_neg, ...), not its bootstrap statistics.
//   - Options.Windows: a top-level "windows" array (XML <windows>) after
//     everything libvmaf writes, one entry per AddWindow.
//   - Options.Alerts: a top-level "alerts" array (XML <alerts>) after the
//     windows, one entry per drop that ended (AddAlert with AlertEnd).
//
// CSV and subtitles have no pooled section, so they carry none of them.
// Running times are in seconds (null in JSON, left out in XML, when not
// known).
//
// The sections are in the trailer, which a Writer made with Create
// rewrites at every commit: each window and drop is laid out once, when
// added, but the bytes are written again each time (about 350 bytes a
// window), so a long run with a window every frame makes every commit
// write megabytes. Commit less often (Options.CommitInterval) or make
// fewer windows (a window step) for such runs.

// PercentileKey names percentile p in a document and in the element's
// messages: "p" then p in the shortest decimal that reads back as it, so
// 5 is "p5" and 99.9 is "p99.9".
func PercentileKey(p float64) string {
	return "p" + strconv.FormatFloat(p, 'f', -1, 64)
}

// AddWindow records a window for the "windows" section; without
// Options.Windows it is ignored.
func (w *Writer) AddWindow(win analytics.Window) {
	if w.opts.Windows {
		w.windows.add(w.opts.Format, "window", windowFields(&win))
	}
}

// AddAlert records a drop for the "alerts" section once it has ended; a
// drop's begin, and anything without Options.Alerts, is ignored.
func (w *Writer) AddAlert(a analytics.Alert) {
	if w.opts.Alerts && a.State == analytics.AlertEnd {
		w.alerts.add(w.opts.Format, "alert", alertFields(&a))
	}
}

// entries are the entries of the windows or alerts section, laid out in
// the document's format.
type entries struct {
	b []byte
	n int
}

func (e *entries) add(f Format, tag string, fields []entryField) {
	switch f {
	case JSON:
		if e.n > 0 {
			e.b = append(e.b, ',')
		}
		e.b = appendJSONEntry(e.b, fields)
	case XML:
		e.b = appendXMLEntry(e.b, tag, fields)
	}
	e.n++
}

// addModelScores counts each model's score of f for the percentiles; f's
// metrics are already under the models' keys.
func (w *Writer) addModelScores(f *Frame) {
	for _, m := range f.Models {
		key, ok := w.keys.Key(m)
		if !ok {
			continue
		}
		i, ok := w.pool.index[key]
		if !ok {
			continue // left out of the frame (--no_prediction)
		}
		v, ok := lookup(f.Metrics, 0, key)
		if !ok {
			continue
		}
		s := &w.pool.stats[i]
		if s.hist == nil {
			s.hist = &analytics.Histogram{}
		}
		s.hist.Add(v)
	}
}

func (w *Writer) appendJSONPercentiles(b []byte, s *stat) []byte {
	if s.hist == nil {
		return b
	}
	for _, p := range w.opts.Percentiles {
		b = append(b, ",\n      "...)
		b = appendJSONString(b, PercentileKey(p))
		b = append(b, ": "...)
		b = appendJSONNumber(b, s.hist.Percentile(p))
	}
	return b
}

func (w *Writer) appendXMLPercentiles(b []byte, s *stat) []byte {
	if s.hist == nil {
		return b
	}
	for _, p := range w.opts.Percentiles {
		b = append(b, ' ')
		b = append(b, PercentileKey(p)...)
		b = append(b, "=\""...)
		b = appendNumber(b, s.hist.Percentile(p))
		b = append(b, '"')
	}
	return b
}

// jsonField appends one `"name": ` entry of an object at the given indent.
func jsonField(b []byte, first bool, indent, name string) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '\n')
	b = append(b, indent...)
	b = appendJSONString(b, name)
	return append(b, ": "...)
}

func (w *Writer) appendJSONAnalytics(b []byte) []byte {
	if w.opts.Windows {
		b = append(b, ",\n  \"windows\": ["...)
		b = append(b, w.windows.b...)
		b = append(b, "\n  ]"...)
	}
	if w.opts.Alerts {
		b = append(b, ",\n  \"alerts\": ["...)
		b = append(b, w.alerts.b...)
		b = append(b, "\n  ]"...)
	}
	return w.appendJSONWarnings(b)
}

func (w *Writer) appendXMLAnalytics(b []byte) []byte {
	if w.opts.Windows {
		b = append(b, "  <windows>\n"...)
		b = append(b, w.windows.b...)
		b = append(b, "  </windows>\n"...)
	}
	if w.opts.Alerts {
		b = append(b, "  <alerts>\n"...)
		b = append(b, w.alerts.b...)
		b = append(b, "  </alerts>\n"...)
	}
	return w.appendXMLWarnings(b)
}

// entryField is one field of a window or drop entry: a JSON object's
// member, an XML element's attribute. One list of them serves both
// formats, which differ only in how each kind of value is written.
type entryField struct {
	name string
	kind fieldKind
	i    int64
	f    float64
	s    string
	d    time.Duration
}

type fieldKind uint8

const (
	fieldInt     fieldKind = iota // i
	fieldNumber                   // f; null in JSON when not finite
	fieldString                   // s
	fieldSeconds                  // d in seconds; unknown (negative): null in JSON, left out in XML
	fieldBool                     // i != 0
)

func intField(name string, v int) entryField {
	return entryField{name: name, kind: fieldInt, i: int64(v)}
}

func numberField(name string, v float64) entryField {
	return entryField{name: name, kind: fieldNumber, f: v}
}

func stringField(name, v string) entryField { return entryField{name: name, kind: fieldString, s: v} }

func secondsField(name string, d time.Duration) entryField {
	return entryField{name: name, kind: fieldSeconds, d: d}
}

func boolField(name string, v bool) entryField {
	f := entryField{name: name, kind: fieldBool}
	if v {
		f.i = 1
	}
	return f
}

// windowFields lists a window's fields in the order both formats print
// them: where and how long, then libvmaf's pooled keys, then the
// percentiles.
func windowFields(win *analytics.Window) []entryField {
	f := []entryField{
		intField("first", win.First), intField("last", win.Last),
		secondsField("start", win.Start), secondsField("end", win.End),
		intField("frames", win.Frames), stringField("model", win.Model),
		numberField("min", win.Min), numberField("max", win.Max),
		numberField("mean", win.Mean), numberField("harmonic_mean", win.HarmonicMean),
	}
	for _, p := range win.Percentiles {
		f = append(f, numberField(PercentileKey(p.P), p.Value))
	}
	return f
}

func alertFields(a *analytics.Alert) []entryField {
	return []entryField{
		{name: "id", kind: fieldInt, i: int64(a.ID)},
		intField("first", a.First), intField("last", a.Last),
		secondsField("start", a.Start), secondsField("end", a.End),
		intField("frames", a.Frames), stringField("model", a.Model),
		numberField("min", a.Min), numberField("mean", a.Mean), numberField("threshold", a.Threshold),
		boolField("at_eos", a.AtEOS),
	}
}

const jsonIndent = "      "

func appendJSONEntry(b []byte, fields []entryField) []byte {
	b = append(b, "\n    {"...)
	for i, f := range fields {
		b = jsonField(b, i == 0, jsonIndent, f.name)
		switch f.kind {
		case fieldInt:
			b = strconv.AppendInt(b, f.i, 10)
		case fieldNumber:
			b = appendJSONNumber(b, f.f)
		case fieldString:
			b = appendJSONString(b, f.s)
		case fieldSeconds:
			if f.d < 0 {
				b = append(b, "null"...)
			} else {
				b = appendNumber(b, f.d.Seconds())
			}
		case fieldBool:
			b = strconv.AppendBool(b, f.i != 0)
		}
	}
	return append(b, "\n    }"...)
}

func appendXMLEntry(b []byte, tag string, fields []entryField) []byte {
	b = append(b, "    <"...)
	b = append(b, tag...)
	for _, f := range fields {
		if f.kind == fieldSeconds && f.d < 0 {
			continue
		}
		b = append(b, ' ')
		b = append(b, f.name...)
		b = append(b, "=\""...)
		switch f.kind {
		case fieldInt:
			b = strconv.AppendInt(b, f.i, 10)
		case fieldNumber:
			b = appendNumber(b, f.f)
		case fieldString:
			b = appendXMLAttr(b, f.s)
		case fieldSeconds:
			b = appendNumber(b, f.d.Seconds())
		case fieldBool:
			b = strconv.AppendBool(b, f.i != 0)
		}
		b = append(b, '"')
	}
	return append(b, " />\n"...)
}
