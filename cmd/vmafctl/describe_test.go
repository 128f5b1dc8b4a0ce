package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

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

// warnTarget answers swaps with a mismatched-model warning and reports
// the engine auto chose, as the element does on small frames.
type warnTarget struct{ *target }

func (w warnTarget) RequestSwap(ctx context.Context, model, name string) (control.Command, error) {
	c, err := w.target.RequestSwap(ctx, model, name)
	c.MismatchedModelWarning = "model vmaf_4k_v0.6.1 is meant for 4K (2160p) viewing"
	return c, err
}

func (w warnTarget) Status() control.Status {
	st := w.target.Status()
	st.Engine, st.EngineUsed = "auto", "native"
	return st
}

// TestSwapWarningAndEngine: vmafctl prints a swap's warning and the
// engine auto chose.
func TestSwapWarningAndEngine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vmaf.sock")
	s, err := control.Start(path, warnTarget{newTarget()}, control.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if code, out, e := vmafctl(t, "-s", path, "swap", "vmaf_v0.6.1neg"); code != exitOK || !strings.Contains(out, "\nwarning: model vmaf_4k_v0.6.1 is meant for 4K") {
		t.Errorf("swap: exit %d, %q %q", code, out, e)
	}
	if code, out, e := vmafctl(t, "-s", path, "status"); code != exitOK || !strings.Contains(out, "(engine auto: native)") {
		t.Errorf("status: exit %d, %q %q", code, out, e)
	}
}
