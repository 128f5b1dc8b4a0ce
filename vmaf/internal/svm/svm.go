// Package svm is the prediction half of libsvm that libvmaf's models use:
// a ν-SVR with an RBF kernel, evaluated in libsvm's order with the C
// library's correctly rounded exp.
package svm

import (
	"fmt"

	"github.com/vmafsink/vmafsink/vmaf/internal/modelfile"
)

// Model is a ν-SVR with an RBF kernel, its support vectors stored
// densely in one slice, dim values each.
type Model struct {
	gamma float64
	rho   float64
	dim   int
	coef  []float64
	sv    []float64
}

// New makes the model of a decoded libsvm text for dim features.
func New(d modelfile.SVM, dim int) (Model, error) {
	m := Model{gamma: d.Gamma, rho: d.Rho, dim: dim, coef: d.Coef, sv: make([]float64, len(d.SV)*dim)}
	for i, row := range d.SV {
		if len(row) > dim {
			return m, fmt.Errorf("support vector %d has index %d but the model has %d features", i, len(row), dim)
		}
		copy(m.sv[i*dim:], row)
	}
	return m, nil
}

// Predict returns the decision value for x (len dim), summing in libsvm's
// order. The float64 conversions stop the compiler fusing multiply-adds,
// which would round differently from libvmaf.
func (m *Model) Predict(x []float64) float64 {
	x = x[:m.dim]
	var sum float64
	for i, c := range m.coef {
		sv := m.sv[i*m.dim : (i+1)*m.dim]
		var d2 float64
		for k, v := range sv {
			d := x[k] - v
			d2 += float64(d * d)
		}
		sum += float64(c * expRBF(-m.gamma*d2))
	}
	return sum - m.rho
}
