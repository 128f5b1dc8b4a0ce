package main

import (
	"bytes"
	"fmt"
	"strconv"
)

// emitDict writes d as a modelDict composite literal (one element of a
// []modelDict), leaving out fields the file lacks.
func emitDict(b *bytes.Buffer, d dict) {
	b.WriteString("{\n")
	fmt.Fprintf(b, "modelType: %q,\nnormType: %q,\n", d.modelType, d.normType)
	if d.featureNames != nil {
		b.WriteString("featureNames: []string{")
		for i, n := range d.featureNames {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "%q", n)
		}
		b.WriteString("},\n")
	}
	if d.featureOpts != nil {
		b.WriteString("featureOpts: [][]featureOpt{\n")
		for _, opts := range d.featureOpts {
			if opts == nil {
				b.WriteString("nil,\n")
				continue
			}
			b.WriteString("{")
			for _, o := range opts {
				fmt.Fprintf(b, "{%q, %q}, ", o.key, o.val)
			}
			b.WriteString("},\n")
		}
		b.WriteString("},\n")
	}
	emitFloats(b, "slopes", d.slopes)
	emitFloats(b, "intercepts", d.intercepts)
	emitFloats(b, "clip", d.clip)
	if t := d.transform; t != nil {
		fmt.Fprintf(b, "transform: &transformDict{enabled: %t, outLTEIn: %t, outGTEIn: %t, hasKnots: %t,\n",
			t.enabled, t.outLTEIn, t.outGTEIn, t.hasKnots)
		b.WriteString("p: [3]optionalFloat{")
		for _, p := range t.p {
			if p == nil {
				b.WriteString("{}, ")
			} else {
				fmt.Fprintf(b, "{true, %s}, ", lit(*p))
			}
		}
		b.WriteString("},\n")
		if t.knots != nil {
			b.WriteString("knots: [][2]float64{")
			for _, k := range t.knots {
				fmt.Fprintf(b, "{%s, %s}, ", lit(k[0]), lit(k[1]))
			}
			b.WriteString("},\n")
		}
		b.WriteString("},\n")
	}
	if d.chroma != nil {
		fmt.Fprintf(b, "chroma: optionalFloat{true, %s},\n", lit(*d.chroma))
	}
	if s := d.svm; s != nil {
		fmt.Fprintf(b, "hasSVM: true,\nsvm: svmDict{svmType: %q, kernelType: %q, gamma: %s, rho: %s,\n",
			s.svmType, s.kernelType, lit(s.gamma), lit(s.rho))
		emitFloats(b, "coef", s.coef)
		b.WriteString("sv: [][]float64{\n")
		for _, row := range s.sv {
			if row == nil {
				b.WriteString("nil,\n")
				continue
			}
			writeFloatList(b, row)
			b.WriteString(",\n")
		}
		b.WriteString("},\n},\n")
	}
	b.WriteString("},\n")
}

func emitFloats(b *bytes.Buffer, field string, v []float64) {
	if v == nil {
		return
	}
	b.WriteString(field + ": []float64")
	writeFloatList(b, v)
	b.WriteString(",\n")
}

func writeFloatList(b *bytes.Buffer, v []float64) {
	b.WriteString("{")
	for i, x := range v {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(lit(x))
	}
	b.WriteString("}")
}

// float formats x as a Go literal that reads back as the same float64.
func lit(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
