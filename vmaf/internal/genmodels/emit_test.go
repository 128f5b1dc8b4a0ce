package main

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/modelfile"
)

func TestEmit(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"nil and empty slices differ", []modelfile.Dict{{Slopes: []float64{}, Clip: nil}},
			"[]modelfile.Dict{\n{\nSlopes: []float64{},\n},\n}"},
		{"float that needs every digit", []float64{0.1, -1.110223e-16, 0.012020766332648465},
			"[]float64{0.1, -1.110223e-16, 0.012020766332648465}"},
		{"struct of scalars on one line", [3]modelfile.OptionalFloat{1: {Set: true, V: 2}},
			"[3]modelfile.OptionalFloat{{}, {Set: true, V: 2}, {}}"},
		{"nil rows kept", [][]modelfile.FeatureOpt{nil, {{Key: "k", Val: "1"}}},
			"[][]modelfile.FeatureOpt{\nnil,\n{{Key: \"k\", Val: \"1\"}},\n}"},
		{"pointer field", modelfile.Dict{Transform: &modelfile.Transform{Enabled: true}},
			"modelfile.Dict{\nTransform: &modelfile.Transform{\nEnabled: true,\n},\n}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := emit(&b, reflect.ValueOf(tc.v), false); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != tc.want {
				t.Errorf("emit =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestEmitRefusesNonFinite(t *testing.T) {
	var b bytes.Buffer
	err := emit(&b, reflect.ValueOf(modelfile.SVM{Coef: []float64{1, math.Inf(1)}}), false)
	if err == nil || !strings.Contains(err.Error(), "Coef: [1]: +Inf has no Go literal") {
		t.Errorf("err = %v, want one naming Coef[1]", err)
	}
}
