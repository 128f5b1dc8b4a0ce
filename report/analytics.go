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
	if !w.opts.Windows {
		return
	}
	switch w.opts.Format {
	case JSON:
		if w.nWindows > 0 {
			w.windows = append(w.windows, ',')
		}
		w.windows = appendJSONWindow(w.windows, &win)
	case XML:
		w.windows = appendXMLWindow(w.windows, &win)
	}
	w.nWindows++
}

// AddAlert records a drop for the "alerts" section once it has ended; a
// drop's begin, and anything without Options.Alerts, is ignored.
func (w *Writer) AddAlert(a analytics.Alert) {
	if !w.opts.Alerts || a.State != analytics.AlertEnd {
		return
	}
	switch w.opts.Format {
	case JSON:
		if w.nAlerts > 0 {
			w.alerts = append(w.alerts, ',')
		}
		w.alerts = appendJSONAlert(w.alerts, &a)
	case XML:
		w.alerts = appendXMLAlert(w.alerts, &a)
	}
	w.nAlerts++
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

func appendJSONSeconds(b []byte, d time.Duration) []byte {
	if d < 0 {
		return append(b, "null"...)
	}
	return appendNumber(b, d.Seconds())
}

func (w *Writer) appendJSONAnalytics(b []byte) []byte {
	if w.opts.Windows {
		b = append(b, ",\n  \"windows\": ["...)
		b = append(b, w.windows...)
		b = append(b, "\n  ]"...)
	}
	if w.opts.Alerts {
		b = append(b, ",\n  \"alerts\": ["...)
		b = append(b, w.alerts...)
		b = append(b, "\n  ]"...)
	}
	return b
}

const jsonIndent = "      "

func appendJSONWindow(b []byte, win *analytics.Window) []byte {
	const in = jsonIndent
	b = append(b, "\n    {"...)
	b = jsonField(b, true, in, "first")
	b = strconv.AppendInt(b, int64(win.First), 10)
	b = jsonField(b, false, in, "last")
	b = strconv.AppendInt(b, int64(win.Last), 10)
	b = jsonField(b, false, in, "start")
	b = appendJSONSeconds(b, win.Start)
	b = jsonField(b, false, in, "end")
	b = appendJSONSeconds(b, win.End)
	b = jsonField(b, false, in, "frames")
	b = strconv.AppendInt(b, int64(win.Frames), 10)
	b = jsonField(b, false, in, "model")
	b = appendJSONString(b, win.Model)
	for _, f := range windowStats(win) {
		b = jsonField(b, false, in, f.name)
		b = appendJSONNumber(b, f.v)
	}
	return append(b, "\n    }"...)
}

func appendJSONAlert(b []byte, a *analytics.Alert) []byte {
	const in = jsonIndent
	b = append(b, "\n    {"...)
	b = jsonField(b, true, in, "id")
	b = strconv.AppendUint(b, a.ID, 10)
	b = jsonField(b, false, in, "first")
	b = strconv.AppendInt(b, int64(a.First), 10)
	b = jsonField(b, false, in, "last")
	b = strconv.AppendInt(b, int64(a.Last), 10)
	b = jsonField(b, false, in, "start")
	b = appendJSONSeconds(b, a.Start)
	b = jsonField(b, false, in, "end")
	b = appendJSONSeconds(b, a.End)
	b = jsonField(b, false, in, "frames")
	b = strconv.AppendInt(b, int64(a.Frames), 10)
	b = jsonField(b, false, in, "model")
	b = appendJSONString(b, a.Model)
	b = jsonField(b, false, in, "min")
	b = appendJSONNumber(b, a.Min)
	b = jsonField(b, false, in, "mean")
	b = appendJSONNumber(b, a.Mean)
	b = jsonField(b, false, in, "threshold")
	b = appendJSONNumber(b, a.Threshold)
	b = jsonField(b, false, in, "at_eos")
	b = strconv.AppendBool(b, a.AtEOS)
	return append(b, "\n    }"...)
}

type namedValue struct {
	name string
	v    float64
}

// windowStats lists a window's statistics in the order both formats
// print them: libvmaf's pooled keys, then the percentiles.
func windowStats(win *analytics.Window) []namedValue {
	out := []namedValue{{"min", win.Min}, {"max", win.Max}, {"mean", win.Mean}, {"harmonic_mean", win.HarmonicMean}}
	for _, p := range win.Percentiles {
		out = append(out, namedValue{PercentileKey(p.P), p.Value})
	}
	return out
}

func appendXMLInt(b []byte, name string, v int64) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, "=\""...)
	b = strconv.AppendInt(b, v, 10)
	return append(b, '"')
}

func appendXMLNumber(b []byte, name string, v float64) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, "=\""...)
	b = appendNumber(b, v)
	return append(b, '"')
}

func appendXMLSeconds(b []byte, name string, d time.Duration) []byte {
	if d < 0 {
		return b
	}
	return appendXMLNumber(b, name, d.Seconds())
}

func appendXMLString(b []byte, name, v string) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, "=\""...)
	b = appendXMLAttr(b, v)
	return append(b, '"')
}

func (w *Writer) appendXMLAnalytics(b []byte) []byte {
	if w.opts.Windows {
		b = append(b, "  <windows>\n"...)
		b = append(b, w.windows...)
		b = append(b, "  </windows>\n"...)
	}
	if w.opts.Alerts {
		b = append(b, "  <alerts>\n"...)
		b = append(b, w.alerts...)
		b = append(b, "  </alerts>\n"...)
	}
	return b
}

func appendXMLWindow(b []byte, win *analytics.Window) []byte {
	b = append(b, "    <window"...)
	b = appendXMLInt(b, "first", int64(win.First))
	b = appendXMLInt(b, "last", int64(win.Last))
	b = appendXMLSeconds(b, "start", win.Start)
	b = appendXMLSeconds(b, "end", win.End)
	b = appendXMLInt(b, "frames", int64(win.Frames))
	b = appendXMLString(b, "model", win.Model)
	for _, f := range windowStats(win) {
		b = appendXMLNumber(b, f.name, f.v)
	}
	return append(b, " />\n"...)
}

func appendXMLAlert(b []byte, a *analytics.Alert) []byte {
	b = append(b, "    <alert"...)
	b = appendXMLInt(b, "id", int64(a.ID))
	b = appendXMLInt(b, "first", int64(a.First))
	b = appendXMLInt(b, "last", int64(a.Last))
	b = appendXMLSeconds(b, "start", a.Start)
	b = appendXMLSeconds(b, "end", a.End)
	b = appendXMLInt(b, "frames", int64(a.Frames))
	b = appendXMLString(b, "model", a.Model)
	b = appendXMLNumber(b, "min", a.Min)
	b = appendXMLNumber(b, "mean", a.Mean)
	b = appendXMLNumber(b, "threshold", a.Threshold)
	b = appendXMLString(b, "at_eos", strconv.FormatBool(a.AtEOS))
	return append(b, " />\n"...)
}
