package element

// The properties GStreamer's own vmaf element has and vmafsink names
// otherwise, so that its pipelines run with only the factory name
// changed. Each one maps onto vmafsink's own settings at start.

/*
#include "gstglue.h"
*/
import "C"

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/go-gst/go-glib/glib"
	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

// upstreamSettings are the upstream element's settings that vmafsink
// expresses through its own.
type upstreamSettings struct {
	modelFilename   string // replaces model when set
	disableClip     bool
	enableTransform bool
	phoneModel      bool // libvmaf's phone model is the transform of vmaf_v0.6.1
	confInterval    bool
	// resultsFormatSet tells a results-format set by the application
	// from the default, which then follows results-filename's extension.
	resultsFormatSet bool
	logLevel         int // the last log-level set, applied by SetProperty
}

var compatProperties = []property{
	stringProperty("model-filename", "Model filename",
		"GStreamer's vmaf element's name for the model: a libvmaf JSON model file or a built-in version; "+
			"when set it replaces model",
		func(s *settings) *string { return &s.up.modelFilename }),
	boolProperty("disable-clip", "Disable clip", "Leave the score unclipped (libvmaf's disable_clip model option)",
		func(s *settings) *bool { return &s.up.disableClip }),
	boolProperty("enable-transform", "Enable transform",
		"Apply the model's score transform (libvmaf's enable_transform model option)",
		func(s *settings) *bool { return &s.up.enableTransform }),
	boolProperty("phone-model", "Phone model",
		"Score for phone viewing: the model's score transform, as libvmaf's phone model (same as enable-transform)",
		func(s *settings) *bool { return &s.up.phoneModel }),
	boolProperty("conf-interval", "Confidence interval",
		"Report the 95% confidence interval of the score (<model>_ci_p95_lo and _hi in frame messages and "+
			"results); needs a bootstrap model such as vmaf_b_v0.6.3",
		func(s *settings) *bool { return &s.up.confInterval }),
}

// modelSpec is the model spec a run loads: model-filename or model, with
// the upstream element's model options added.
func (s *settings) modelSpec() string {
	spec := s.model
	if s.up.modelFilename != "" {
		spec = s.up.modelFilename
	}
	var opts []string
	if s.up.disableClip {
		opts = append(opts, "disable_clip=true")
	}
	if s.up.enableTransform || s.up.phoneModel {
		opts = append(opts, "enable_transform=true")
	}
	parsed, err := vmaf.ParseModelSpecString(spec)
	if len(opts) == 0 || err != nil {
		// The loader reports a spec it cannot read, quoting it as given.
		return spec
	}
	parsed.Options = append(parsed.Options, opts...)
	return parsed.String()
}

// checkModel refuses settings the loaded model cannot honour.
func (s *settings) checkModel(m *vmaf.Model) error {
	if s.up.confInterval && !m.IsCollection() {
		return errors.New("conf-interval needs a bootstrap model (model=vmaf_b_v0.6.3 or a bootstrap model file)")
	}
	return nil
}

// resultsNone is results-format=none, as GStreamer's vmaf element has
// it: no results file.
const resultsNone = C.VS_RESULTS_NONE

// resultsFileFormat is results-format, or, when the application left it
// unset, the format results-filename's extension names.
func (s *settings) resultsFileFormat() report.Format {
	if s.up.resultsFormatSet {
		return s.resultsFormat
	}
	switch strings.ToLower(filepath.Ext(s.resultsFilename)) {
	case ".json":
		return report.JSON
	case ".csv":
		return report.CSV
	}
	return s.resultsFormat
}

// logLevelProperty is the upstream element's log-level: here the
// threshold of the element's own debug category (vmafsink or vmafpass),
// as GST_DEBUG=vmafsink:N sets it. Reading it gives the category's level,
// however it was set; setting it changes that category only (every
// instance of the element shares it), never GStreamer's default.
var logLevelProperty = property{
	name: "log-level",
	spec: func() *glib.ParamSpec {
		return enumSpec("log-level", "Log level",
			"Threshold of the element's debug category (vmafsink or vmafpass), as GST_DEBUG=vmafsink:N sets it; "+
				"shared by the element's instances in the process, other categories untouched",
			C.vs_log_level_get_type(), 0)
	},
	set: func(s *settings, v *glib.Value) error {
		s.up.logLevel = enumOf(v)
		return nil
	},
	get: func(e *vmafSink, _ *settings) (*glib.Value, error) {
		return enumValue(C.vs_log_level_get_type(), int(C.vs_debug_threshold(cbool(e.pass)))), nil
	},
}
