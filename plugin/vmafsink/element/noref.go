package element

/*
#include "gstglue.h"
*/
import "C"

import (
	"errors"
	"fmt"

	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/vmaf"
)

// No-reference mode (no-reference=true): dist_sink alone carries a
// stream, and each of its frames is scored by a no-reference learned
// model. The engine is the one vmaf-score --no-reference runs: the
// distorted picture stands for both sides of each pair, so pairing,
// ordered scoring, commands, analytics and the control plane are the
// ordinary ones. The distorted stream takes the reference's place in
// front of the inner sink (preroll, sync, position, EOS). A linked
// ref_sink is refused: a reference that is fed but never read would
// hide a mistaken pipeline.

// tinySettings are the settings for learned (ONNX) models, named as
// vmaf-score's --tiny-* flags name them.
type tinySettings struct {
	threads uint   // 0: the model's default (1)
	device  string // "": cpu
	verify  bool   // refuse models no registry.json pins
	library string // the ONNX Runtime library; "": found as vmaf-score finds it
}

func (t tinySettings) options() vmaf.LearnedOptions {
	return vmaf.LearnedOptions{Threads: int(t.threads), Device: t.device, Verify: t.verify}
}

// prepareLearned sets the ONNX Runtime library the settings name and
// checks a no-reference run's pads, before any model loads.
func (e *vmafSink) prepareLearned(s *settings) error {
	if s.tiny.library != "" {
		if err := vmaf.UseONNXRuntime(s.tiny.library); err != nil {
			return fmt.Errorf("ort-library %q: %w", s.tiny.library, err)
		}
	}
	if !s.noReference {
		return nil
	}
	if e.pass {
		return errors.New("no-reference: vmafpass passes its reference stream on; use vmafsink with dist_sink alone")
	}
	if C.vs_pad_linked(e.self, C.gint(pipeline.Ref)) != 0 {
		return errors.New("no-reference=true scores dist_sink alone, but ref_sink is linked: unlink ref_sink, or set no-reference=false to score against it")
	}
	return nil
}

// checkNoReference refuses a no-reference run whose model or features
// need a reference.
func (s *settings) checkNoReference(m *vmaf.Model, features []string) error {
	if !s.noReference {
		return nil
	}
	if !m.NoReference() {
		return fmt.Errorf("no-reference=true needs a no-reference model (model=path=/…/nr_metric_v1.onnx), but %s (%s) compares against a reference", m.Name, m.Version)
	}
	if len(features) > 0 {
		return fmt.Errorf("no-reference=true: feature %s compares against a reference, which there is none of", features[0])
	}
	return nil
}

// leadSide is the pad whose stream goes on to the inner sink.
func (s *settings) leadSide() pipeline.Side {
	if s.noReference {
		return pipeline.Dist
	}
	return pipeline.Ref
}

// pushMirrored hands a distorted frame to the Runner as both sides of its
// pair. The mapped frame is released when both sides have let it go.
func (st *runState) pushMirrored(f pipeline.Frame, m *mappedFrame) error {
	m.shares.Store(2)
	if err := st.runner.Push(pipeline.Ref, f); err != nil {
		m.Release()
		return err
	}
	return st.runner.Push(pipeline.Dist, f)
}

// eventNoReference handles a sink pad's event in no-reference mode: the
// distorted stream's events stand for both sides; ref_sink's are dropped
// (a run does not start with it linked).
func (st *runState) eventNoReference(s pipeline.Side, ev *C.GstEvent) bool {
	if s == pipeline.Ref {
		st.e.logPad(lvlDebug, s, "no-reference: event ignored")
		return true
	}
	switch C.vs_event_type(ev) {
	case C.GST_EVENT_CAPS:
		return st.setCapsNoReference(C.vs_event_caps(ev))
	case C.GST_EVENT_SEGMENT:
		C.gst_event_copy_segment(ev, &st.pads[pipeline.Dist].segment)
	case C.GST_EVENT_EOS:
		st.runner.EndOfStream(pipeline.Ref)
		both := st.runner.EndOfStream(pipeline.Dist)
		st.e.logf(lvlInfo, "dist_sink: EOS (no reference): ending the run")
		if both && st.finish() {
			C.vs_inner_push_eos(st.e.self, C.gst_event_get_seqnum(ev))
		}
	case C.GST_EVENT_FLUSH_START:
		st.runner.FlushStart(pipeline.Ref)
		st.runner.FlushStart(pipeline.Dist)
	case C.GST_EVENT_FLUSH_STOP:
		st.reopen(s)
		st.runner.FlushStop(pipeline.Ref)
		st.runner.FlushStop(pipeline.Dist)
		C.gst_segment_init(&st.pads[pipeline.Dist].segment, C.GST_FORMAT_TIME)
	}
	return true
}

// setCapsNoReference takes the distorted stream's format for both sides.
func (st *runState) setCapsNoReference(caps *C.GstCaps) bool {
	f, err := parseCaps(caps)
	if err != nil {
		st.e.fail(errFormat, "dist_sink: unsupported caps", err.Error())
		return false
	}
	if err := st.checkFormat(f); err != nil {
		st.e.fail(errFormat, fmt.Sprintf("dist_sink: %s frames cannot be scored with these settings: %v", f.short(), err),
			fmt.Sprintf("caps %s refused: %v", f.caps, err))
		return false
	}
	st.formatMu.Lock()
	st.pads[pipeline.Ref].format = f
	st.pads[pipeline.Dist].format = f
	st.formatMu.Unlock()
	st.e.logPad(lvlInfo, pipeline.Dist, "caps accepted (no reference): %s", f.caps)
	return true
}
