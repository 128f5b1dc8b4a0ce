package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf"
)

// writeExtractors prints what --feature accepts: each extractor, its
// outputs and its options.
func writeExtractors(w io.Writer) {
	for _, e := range vmaf.Extractors() {
		fmt.Fprintf(w, "%s: %s\n", e.Name, strings.Join(e.Outputs, " "))
		for _, o := range e.Options {
			bounds := ""
			if o.Type == "int" || o.Type == "double" {
				hi := fmt.Sprint(o.Max)
				if o.Max == math.MaxFloat64 {
					hi = "max"
				}
				bounds = fmt.Sprintf(", %g..%s", o.Min, hi)
			}
			renames := ""
			if o.Renames {
				renames = ", renames outputs"
			}
			if o.DefaultOnly {
				renames += ", only the default natively"
			}
			fmt.Fprintf(w, "  %s (%s, default %s%s%s)\n", o.Name, o.Type, o.Default, bounds, renames)
		}
	}
}
