// Package element implements vmafsink, the GStreamer element that scores
// a distorted video stream against its reference while the pipeline runs.
// It is a thin adapter: pads, caps and buffers on one side, the
// frame-boundary engine of package pipeline on the other.
package element

/*
#cgo pkg-config: gstreamer-1.0 gstreamer-video-1.0
#include <stdlib.h>
#include "gstglue.h"
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/go-gst/go-glib/glib"
	"github.com/go-gst/go-gst/gst"
)

// Name is the element's factory name.
const Name = "vmafsink"

// Options configure the element factory the plugin registers.
type Options struct {
	// Control starts the agent control plane when the mcp-uds property is
	// set; nil leaves the property without effect (a warning says so).
	Control ControlStarter
	// WorkerSetup gives the vmaf.Config.WorkerSetup of a run that serves
	// the control plane (nil: none); runs without one score at the
	// host's priority, whatever other elements in the process do.
	WorkerSetup func() func() bool
	// Version is shown by gst-inspect.
	Version string
}

// TypeName is the element's GType name.
const TypeName = "GstVmafSink"

// Register registers the vmafsink element with a plugin, or with no
// plugin at all (nil) for a Go program that adds the element to its own
// GStreamer instead of loading the plugin's shared library.
//
// It registers vmafpass too: the same element with a src pad that passes
// the reference stream on instead of an inner sink, for pipelines that
// display or encode it after scoring (GStreamer's vmaf element does that).
func Register(plugin *gst.Plugin, opts Options) bool {
	var p *C.GstPlugin
	if plugin != nil {
		p = (*C.GstPlugin)(unsafe.Pointer(plugin.Unsafe()))
	}
	register := func(name, typeName string, proto glib.GoObjectSubclass) bool {
		gtype := glib.RegisterGoType(typeName, proto, gst.ExtendsBin)
		cname := C.CString(name)
		defer C.free(unsafe.Pointer(cname))
		return C.gst_element_register(p, cname, C.GST_RANK_NONE, C.GType(gtype)) != 0
	}
	return register(Name, TypeName, &vmafSink{opts: opts}) &&
		register(PassName, PassTypeName, &vmafPass{vmafSink{opts: opts, pass: true}})
}

// vmafPass is vmafpass's prototype: go-glib registers one GType per Go
// type, so the pass-through element needs a type of its own; its
// instances are vmafSinks with pass set.
type vmafPass struct{ vmafSink }

// PassName and PassTypeName name the pass-through element.
const (
	PassName     = "vmafpass"
	PassTypeName = "GstVmafPass"
)

// vmafSink is one element instance. Its settings live behind one lock;
// its running state exists only between READY→PAUSED and PAUSED→READY.
type vmafSink struct {
	opts Options
	pass bool // vmafpass: a src pad rather than an inner sink
	self *C.GstElement
	pads [2]*C.GstPad // ref_sink and dist_sink, for debug lines about one of them

	settingsMu sync.Mutex
	settings   settings

	state atomic.Pointer[runState]

	// Read-only properties, kept after a run ends.
	framesScored atomic.Uint64
	lastScore    atomic.Uint64 // float64 bits
}

var _ glib.GoObjectSubclass = (*vmafSink)(nil)

// New makes the Go half of a new instance; GObject calls it through the
// registered prototype, so the factory's options carry over.
func (e *vmafSink) New() glib.GoObjectSubclass {
	return &vmafSink{opts: e.opts, pass: e.pass, settings: defaultSettings()}
}

func (e *vmafSink) ClassInit(klass *glib.ObjectClass) {
	defer e.recoverPanic("class init", nil)
	C.vs_class_init((*C.GstElementClass)(unsafe.Pointer(klass.Instance())), cbool(e.pass))
	oc := (*C.GObjectClass)(unsafe.Pointer(klass.Instance()))
	for i, spec := range paramSpecs() {
		if e.pass && !properties[i].pass {
			continue
		}
		// Ids are indices into properties plus one, as go-glib hands
		// them back to SetProperty and GetProperty less one.
		C.g_object_class_install_property(oc, C.guint(i+1), specPointer(spec))
	}
	if !e.pass {
		C.vs_sink_properties_install(oc)
	}
	for _, p := range properties {
		if p.set == nil || (e.pass && !p.pass) {
			continue
		}
		flags := C.guint(C.GST_PARAM_MUTABLE_READY)
		if liveProperties[p.name] {
			flags = C.GST_PARAM_MUTABLE_PLAYING
		}
		name := C.CString(p.name)
		C.vs_param_add_flags(oc, name, flags)
		C.free(unsafe.Pointer(name))
	}
}

var (
	cFramesScored = C.CString("frames-scored")
	cLastScore    = C.CString("last-score")
)

// notifyScores announces new values of the read-only score properties.
func (e *vmafSink) notifyScores() {
	C.vs_notify(e.self, cFramesScored)
	C.vs_notify(e.self, cLastScore)
}

// Constructed adds the two always pads and the inner sink, once per
// instance.
func (e *vmafSink) Constructed(obj *glib.Object) {
	defer e.recoverPanic("instance init", nil)
	e.self = (*C.GstElement)(unsafe.Pointer(obj.Unsafe()))
	C.vs_add_pads(e.self, &e.pads[0], &e.pads[1])
	if e.pass {
		C.vs_inner_src_add(e.self)
	} else if C.vs_inner_sink_add(e.self) == 0 {
		e.logf(lvlError, "cannot create the inner fakesink: the element will not preroll or post EOS")
	}
}

func (e *vmafSink) SetProperty(obj *glib.Object, id uint, value *glib.Value) {
	defer e.recoverPanic("set-property", nil)
	testPanicAt("set-property")
	if id >= uint(len(properties)) || properties[id].set == nil {
		return
	}
	e.settingsMu.Lock()
	err := properties[id].set(&e.settings, value)
	s := e.settings
	e.settingsMu.Unlock()
	if err != nil {
		e.logf(lvlWarning, "property %s: %v", properties[id].name, err)
		e.warn("invalid value for property "+properties[id].name+": "+err.Error(), err.Error())
		return
	}
	if id == propLogLevel {
		C.vs_debug_set_threshold(cbool(e.pass), C.gint(s.up.logLevel))
		return
	}
	st := e.state.Load()
	switch {
	case st == nil:
	case liveProperties[properties[id].name]:
		st.propertyChanged(id, &s)
	default:
		e.logf(lvlWarning, "property %s set while running: it takes effect at the next start", properties[id].name)
		e.warn("property "+properties[id].name+" set while running",
			"it takes effect when the element next goes from READY to PAUSED")
	}
}

func (e *vmafSink) GetProperty(obj *glib.Object, id uint) (v *glib.Value) {
	defer e.recoverPanic("get-property", func() { v = nil })
	if id >= uint(len(properties)) {
		return nil
	}
	e.settingsMu.Lock()
	s := e.settings
	e.settingsMu.Unlock()
	v, err := properties[id].get(e, &s)
	if err != nil {
		e.logf(lvlWarning, "reading property %s: %v", properties[id].name, err)
		return nil
	}
	return v
}

// ChangeState starts a run on READY→PAUSED and ends it on PAUSED→READY.
// Streaming threads are released before the pads deactivate, since a
// pusher may be waiting on back-pressure or a pause.
func (e *vmafSink) ChangeState(el *gst.Element, transition gst.StateChange) (ret gst.StateChangeReturn) {
	defer e.recoverPanic("state change "+transition.String(), func() { ret = gst.StateChangeFailure })
	switch transition {
	case gst.StateChangeReadyToPaused:
		testPanicAt("state-change")
		e.settingsMu.Lock()
		s := e.settings
		e.settingsMu.Unlock()
		st, err := start(e, s)
		if err != nil {
			e.logf(lvlError, "start refused: %v", err)
			e.fail(errSettings, "vmafsink cannot start: "+err.Error(), err.Error())
			return gst.StateChangeFailure
		}
		e.state.Store(st)
		C.vs_inner_sink_set_sync(e.self, cbool(s.sync))
		C.vs_inner_activate(e.self, 1)
		e.logf(lvlInfo, "run started: model %s, engine %s, threads %d, pairing %s, backpressure %s, max-pending %d, max-lead %d, pause-mode %s",
			s.model, s.engine, s.threads, s.pairing, s.backpressure, s.maxPending, s.maxLead, s.pauseMode)
	case gst.StateChangePausedToPlaying:
		if st := e.state.Load(); st != nil {
			st.gate.setPlaying(true)
		}
	case gst.StateChangePlayingToPaused:
		if st := e.state.Load(); st != nil {
			st.gate.setPlaying(false)
		}
	case gst.StateChangePausedToReady:
		if st := e.state.Load(); st != nil {
			st.gate.close()
			if e.logOn(lvlInfo) {
				status := st.runner.Status()
				e.logf(lvlInfo, "run stopping: %s", describe(&status))
			}
			st.runner.Stop()
		}
	}
	ret = el.ParentChangeState(transition)
	if transition == gst.StateChangePausedToReady || (transition == gst.StateChangeReadyToPaused && ret == gst.StateChangeFailure) {
		if st := e.state.Swap(nil); st != nil {
			st.stop()
		}
		C.vs_inner_activate(e.self, 0)
	}
	return ret
}

// specPointer is the GParamSpec behind go-glib's wrapper, whose one
// field it is: go-glib installs properties only with consecutive ids,
// and vmafpass leaves some of vmafsink's out.
func specPointer(p *glib.ParamSpec) *C.GParamSpec {
	return *(**C.GParamSpec)(unsafe.Pointer(p))
}

func cbool(b bool) C.gboolean {
	if b {
		return 1
	}
	return 0
}

// fromParent finds the element behind a pad's parent pointer.
func fromParent(parent unsafe.Pointer) *vmafSink {
	e, _ := glib.FromObjectUnsafePrivate(parent).(*vmafSink)
	return e
}
