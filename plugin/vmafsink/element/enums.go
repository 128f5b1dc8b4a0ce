package element

/*
#include <stdlib.h>
#include "gstglue.h"

static gint vs_enum_value(GType type, const char *nick, gboolean *found) {
  GEnumClass *klass = g_type_class_ref(type);
  GEnumValue *v = g_enum_get_value_by_nick(klass, nick);
  *found = v != NULL;
  gint value = v ? v->value : 0;
  g_type_class_unref(klass);
  return value;
}

static guint vs_enum_n_values(GType type) {
  GEnumClass *klass = g_type_class_ref(type);
  guint n = klass->n_values;
  g_type_class_unref(klass);
  return n;
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

// enumBinding is an enum property's GType as gstglue.c registers it and
// the Go value each of its nicks must carry: the C table and the Go
// constants are written apart, and enumMismatches holds them together.
type enumBinding struct {
	property string
	gtype    C.GType
	values   map[string]int
}

func enumBindings() []enumBinding {
	return []enumBinding{
		{"pool-method", C.vs_pool_method_get_type(), map[string]int{
			"mean": int(vmaf.PoolMean), "harmonic_mean": int(vmaf.PoolHarmonicMean),
			"min": int(vmaf.PoolMin), "max": int(vmaf.PoolMax)}},
		{"results-format", C.vs_results_format_get_type(), map[string]int{
			"xml": int(report.XML), "json": int(report.JSON), "csv": int(report.CSV), "none": resultsNone}},
		{"engine", C.vs_engine_get_type(), map[string]int{
			"auto": int(engineAuto), "native": int(engineNative), "libvmaf": int(engineLibvmaf)}},
		{"pairing", C.vs_pairing_get_type(), map[string]int{
			"timestamp": int(pipeline.PairByTimestamp), "order": int(pipeline.PairByOrder)}},
		{"backpressure", C.vs_backpressure_get_type(), map[string]int{
			"block": int(pipeline.Block), "drop": int(pipeline.Drop)}},
		{"pause-mode", C.vs_pause_mode_get_type(), map[string]int{
			"skip": int(pipeline.PauseSkip), "block": int(pipeline.PauseBlock)}},
		{"log-level", C.vs_log_level_get_type(), map[string]int{
			"none": 0, "error": 1, "warning": 2, "fixme": 3, "info": 4, "debug": 5, "log": 6, "trace": 7, "memdump": 9}},
	}
}

// enumMismatches lists every difference between the registered enums and
// the Go values: a nick missing or with another value, or a C value no Go
// constant stands for.
func enumMismatches() []string {
	var out []string
	for _, b := range enumBindings() {
		for nick, want := range b.values {
			cnick := C.CString(nick)
			var found C.gboolean
			got := int(C.vs_enum_value(b.gtype, cnick, &found))
			C.free(unsafe.Pointer(cnick))
			switch {
			case found == 0:
				out = append(out, fmt.Sprintf("%s: no value with nick %q", b.property, nick))
			case got != want:
				out = append(out, fmt.Sprintf("%s: %q is %d in C, %d in Go", b.property, nick, got, want))
			}
		}
		if n := int(C.vs_enum_n_values(b.gtype)); n != len(b.values) {
			out = append(out, fmt.Sprintf("%s: %d values in C, %d in Go", b.property, n, len(b.values)))
		}
	}
	return out
}
