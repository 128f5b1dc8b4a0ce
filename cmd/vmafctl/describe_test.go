package main

import (
	"context"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/vmaf"
)

// DescribeModel describes the built-in models, as the element does.
func (t *target) DescribeModel(_ context.Context, model string) (control.ModelDescription, error) {
	m, err := vmaf.BuiltinModel(model)
	if err != nil {
		return control.ModelDescription{}, control.Errorf(control.CodeUnknownModel, "no built-in model %q", model)
	}
	return control.DescribeModel(m), nil
}
