package report

import "strconv"

// A document is laid out as header | frames | trailer. The header holds
// what libvmaf prints before the first frame, the trailer everything after
// the last (pooled and aggregate metrics, closing tags), so that a file can
// be kept valid by rewriting only the trailer after each batch of frames.

func (w *Writer) appendHeader(b []byte, fps float64) []byte {
	switch w.opts.Format {
	case JSON:
		b = append(b, "{\n  \"version\": "...)
		b = appendJSONString(b, w.opts.Version)
		b = append(b, ",\n  \"fps\": "...)
		b = appendFPS(b, fps, true)
		b = append(b, ",\n  \"frames\": ["...)
	case XML:
		b = append(b, "<VMAF version=\""...)
		b = appendXMLAttr(b, w.opts.Version)
		b = append(b, "\">\n  <params qualityWidth=\""...)
		b = strconv.AppendInt(b, int64(w.opts.Width), 10)
		b = append(b, "\" qualityHeight=\""...)
		b = strconv.AppendInt(b, int64(w.opts.Height), 10)
		b = append(b, "\" />\n  <fyi fps=\""...)
		b = appendFPS(b, fps, false)
		b = append(b, "\" />\n  <frames>\n"...)
	case CSV:
		b = append(b, "Frame,"...)
		for _, c := range w.columns {
			c = outputName(c)
			b = appendCSVField(b, c)
			b = append(b, ',')
		}
		if w.modelColumn {
			b = append(b, "model,"...)
		}
		for _, c := range w.extra {
			b = appendCSVField(b, outputName(c))
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	return b
}

func (w *Writer) appendFrame(b []byte, f *Frame) []byte {
	switch w.opts.Format {
	case JSON:
		if w.frames > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    {\n      \"frameNum\": "...)
		b = strconv.AppendInt(b, int64(f.Num), 10)
		if f.Model != "" {
			b = append(b, ",\n      \"model\": "...)
			b = appendJSONString(b, f.Model)
		}
		b = append(b, ",\n      \"metrics\": {\n"...)
		for i, m := range f.Metrics {
			b = append(b, "        "...)
			b = appendJSONString(b, outputName(m.Name))
			b = append(b, ": "...)
			b = appendJSONNumber(b, m.Value)
			if i < len(f.Metrics)-1 {
				b = append(b, ',')
			}
			b = append(b, '\n')
		}
		b = append(b, "      }\n    }"...)
	case XML:
		b = append(b, "    <frame frameNum=\""...)
		b = strconv.AppendInt(b, int64(f.Num), 10)
		b = append(b, "\" "...)
		if f.Model != "" {
			b = append(b, "model=\""...)
			b = appendXMLAttr(b, f.Model)
			b = append(b, "\" "...)
		}
		for _, m := range f.Metrics {
			b = appendXMLAttr(b, outputName(m.Name))
			b = append(b, "=\""...)
			b = appendNumber(b, m.Value)
			b = append(b, "\" "...)
		}
		b = append(b, "/>\n"...)
	case CSV:
		b = strconv.AppendInt(b, int64(f.Num), 10)
		b = append(b, ',')
		for j, c := range w.columns {
			if v, ok := lookup(f.Metrics, j, c); ok {
				b = appendNumber(b, v)
			}
			b = append(b, ',')
		}
		if w.modelColumn {
			b = appendCSVField(b, f.Model)
			b = append(b, ',')
		}
		for j, c := range w.extra {
			if v, ok := lookup(f.Metrics, len(w.columns)+j, c); ok {
				b = appendNumber(b, v)
			}
			b = append(b, ',')
		}
		b = append(b, '\n')
	case Sub:
		b = append(b, '{')
		b = strconv.AppendInt(b, int64(f.Num), 10)
		b = append(b, "}{"...)
		b = strconv.AppendInt(b, int64(f.Num)+1, 10)
		b = append(b, "}frame: "...)
		b = strconv.AppendInt(b, int64(f.Num), 10)
		b = append(b, '|')
		for _, m := range f.Metrics {
			b = append(b, outputName(m.Name)...)
			b = append(b, ": "...)
			b = appendNumber(b, m.Value)
			b = append(b, '|')
		}
		if f.Model != "" {
			b = append(b, "model: "...)
			b = append(b, f.Model...)
			b = append(b, '|')
		}
		b = append(b, '\n')
	}
	return b
}

// outputName is the key libvmaf's tool writes for an engine metric: it
// prints the motion extractor's SAD score under its internal name.
func outputName(name string) string {
	if name == "integer_motion" {
		return "VMAF_integer_feature_motion_sad_score"
	}
	return name
}

// lookup finds metric name in ms, trying position hint first: frames from
// one engine list their metrics in the same order every time.
func lookup(ms []Metric, hint int, name string) (float64, bool) {
	if hint < len(ms) && ms[hint].Name == name {
		return ms[hint].Value, true
	}
	for _, m := range ms {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}

func (w *Writer) appendTrailer(b []byte) []byte {
	switch w.opts.Format {
	case JSON:
		b = append(b, "\n  ],\n  \"pooled_metrics\": {"...)
		for i := range w.pool.stats {
			s := &w.pool.stats[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n    "...)
			b = appendJSONString(b, s.name)
			b = append(b, ": {\n      \"min\": "...)
			b = appendJSONNumber(b, s.min)
			b = append(b, ",\n      \"max\": "...)
			b = appendJSONNumber(b, s.max)
			b = append(b, ",\n      \"mean\": "...)
			b = appendJSONNumber(b, s.mean())
			b = append(b, ",\n      \"harmonic_mean\": "...)
			b = appendJSONNumber(b, s.harmonicMean())
			b = w.appendJSONPercentiles(b, s)
			b = append(b, "\n    }"...)
		}
		b = append(b, "\n  },\n  \"aggregate_metrics\": {"...)
		for i, m := range w.aggregate {
			b = append(b, "\n    "...)
			b = appendJSONString(b, outputName(m.Name))
			b = append(b, ": "...)
			b = appendJSONNumber(b, m.Value)
			if i < len(w.aggregate)-1 {
				b = append(b, ',')
			}
		}
		b = append(b, "\n  }"...)
		if len(w.swaps) > 0 {
			b = append(b, ",\n  \"model_swaps\": ["...)
			for i, sw := range w.swaps {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, "\n    {\n      \"frameNum\": "...)
				b = strconv.AppendInt(b, int64(sw.Frame), 10)
				b = append(b, ",\n      \"from\": "...)
				b = appendJSONString(b, sw.From)
				b = append(b, ",\n      \"to\": "...)
				b = appendJSONString(b, sw.To)
				b = append(b, "\n    }"...)
			}
			b = append(b, "\n  ]"...)
		}
		b = w.appendJSONAnalytics(b)
		b = w.appendSection(b)
		b = append(b, "\n}\n"...)
	case XML:
		b = append(b, "  </frames>\n  <pooled_metrics>\n"...)
		for i := range w.pool.stats {
			s := &w.pool.stats[i]
			b = append(b, "    <metric name=\""...)
			b = appendXMLAttr(b, s.name)
			b = append(b, "\" min=\""...)
			b = appendNumber(b, s.min)
			b = append(b, "\" max=\""...)
			b = appendNumber(b, s.max)
			b = append(b, "\" mean=\""...)
			b = appendNumber(b, s.mean())
			b = append(b, "\" harmonic_mean=\""...)
			b = appendNumber(b, s.harmonicMean())
			b = append(b, '"')
			b = w.appendXMLPercentiles(b, s)
			b = append(b, " />\n"...)
		}
		b = append(b, "  </pooled_metrics>\n  <aggregate_metrics "...)
		for _, m := range w.aggregate {
			b = appendXMLAttr(b, m.Name)
			b = append(b, "=\""...)
			b = appendNumber(b, m.Value)
			b = append(b, "\" "...)
		}
		b = append(b, "/>\n"...)
		if len(w.swaps) > 0 {
			b = append(b, "  <model_swaps>\n"...)
			for _, sw := range w.swaps {
				b = append(b, "    <swap frameNum=\""...)
				b = strconv.AppendInt(b, int64(sw.Frame), 10)
				b = append(b, "\" from=\""...)
				b = appendXMLAttr(b, sw.From)
				b = append(b, "\" to=\""...)
				b = appendXMLAttr(b, sw.To)
				b = append(b, "\" />\n"...)
			}
			b = append(b, "  </model_swaps>\n"...)
		}
		b = w.appendXMLAnalytics(b)
		b = w.appendSection(b)
		b = append(b, "</VMAF>\n"...)
	}
	return b
}
