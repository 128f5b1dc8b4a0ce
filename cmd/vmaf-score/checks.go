package main

import (
	"fmt"

	"github.com/vmafsink/vmafsink/control/attach"
	"github.com/vmafsink/vmafsink/vmaf"
)

// inputWarnings are what is wrong with scoring these inputs with these
// models that does not stop the run: a model meant for another viewing
// resolution, frame rates that pair badly, a dynamic range that differs.
func (s *settings) inputWarnings(models []*vmaf.Model, ref, dist source) []string {
	var out []string
	f := ref.format()
	for _, m := range models {
		if msg := attach.ModelMismatch(m, f.Width, f.Height); msg != "" {
			out = append(out, msg)
		}
	}
	if s.fps.num == 0 {
		if msg := rateWarning(rateOf(ref), rateOf(dist), s.align); msg != "" {
			out = append(out, msg)
		}
	}
	if msg := rangeWarning(ref, dist); msg != "" {
		out = append(out, msg)
	}
	for _, src := range []source{ref, dist} {
		if g, ok := src.(geometryChecked); ok && g.geometryWarning() != "" {
			out = append(out, g.geometryWarning())
		}
	}
	return out
}

// geometryChecked is a raw input that knows whether its pictures look
// like another geometry than the one given (rawSwapWarning).
type geometryChecked interface {
	geometryWarning() string
}

// warn prints a warning on stderr and keeps it for the results (written
// there at once once the results are open).
func (j *job) warn(msg string) {
	j.warnings = append(j.warnings, msg)
	if j.out != nil {
		j.out.AddWarning(msg)
	}
	fmt.Fprintf(j.stderr, "vmaf-score: warning: %s\n", msg)
}

// rangedSource is an input that knows its transfer function: "PQ" or
// "HLG" for HDR, "" otherwise.
type rangedSource interface {
	dynamicRange() string
}

func rangeOf(src source) string {
	if r, ok := src.(rangedSource); ok {
		return r.dynamicRange()
	}
	return ""
}

// rangeWarning says when one input is HDR and the other is not, or both
// are: VMAF's models were trained on SDR pictures, and an HDR picture
// against an SDR one compares code values of different meanings.
func rangeWarning(ref, dist source) string {
	r, d := rangeOf(ref), rangeOf(dist)
	name := func(s string) string {
		if s == "" {
			return "SDR (or not stated)"
		}
		return "HDR (" + s + ")"
	}
	switch {
	case r != d:
		return fmt.Sprintf("dynamic ranges differ: reference %s, distorted %s; the scores compare code values that mean different light levels — tone-map one to the other's range before scoring", name(r), name(d))
	case r != "":
		return fmt.Sprintf("both inputs are HDR (%s); VMAF's models were trained on SDR video, so the scores are not calibrated for HDR", r)
	}
	return ""
}

// note prints what the run did to its inputs and keeps it for the
// results.
func (j *job) note(msg string) {
	j.notes = append(j.notes, msg)
	if !j.s.quiet {
		fmt.Fprintf(j.stderr, "vmaf-score: %s\n", msg)
	}
}

// truncationWarnings warns of an input that ended well before the frame
// count its container or header announces, with what was scored. Counts
// estimated from a duration may be a frame or two off, which is let go.
func (j *job) truncationWarnings(al *aligner, scored int) {
	if j.s.fps.num > 0 {
		return // the count after conversion is itself an estimate
	}
	for side, src := range []source{j.ref, j.dist} {
		want, got := src.total(), al.read[side]
		if want <= 0 || !al.ended[side] || got >= want-max(2, want/50) {
			continue
		}
		j.warn(fmt.Sprintf("%q ended after %d frames of the %d it announces: it looks cut short; %d frames scored",
			al.name(side), got, want, scored))
	}
}
