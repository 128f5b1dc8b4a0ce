package element

/*
#include <stdlib.h>
#include "gstglue.h"
*/
import "C"

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"unsafe"

	"github.com/vmafsink/vmafsink/pipeline"
)

// category names the element's debug category.
func (e *vmafSink) category() string {
	if e.pass {
		return PassName
	}
	return Name
}

// logLevel is a GstDebugLevel of the vmafsink debug category.
type logLevel C.gint

const (
	lvlError   logLevel = C.GST_LEVEL_ERROR
	lvlWarning logLevel = C.GST_LEVEL_WARNING
	lvlInfo    logLevel = C.GST_LEVEL_INFO
	lvlDebug   logLevel = C.GST_LEVEL_DEBUG
	lvlLog     logLevel = C.GST_LEVEL_LOG
)

// logOn reports whether the element's category (vmafsink or vmafpass)
// logs at l. Callers on the per-frame path test it before building their
// arguments, so that logging costs one threshold read when it is off.
func (e *vmafSink) logOn(l logLevel) bool {
	return e != nil && logLevel(C.vs_debug_threshold(cbool(e.pass))) >= l
}

// logf writes one line to the element's category with the element as its
// object and the caller's file, function and line.
func (e *vmafSink) logf(l logLevel, format string, args ...any) {
	if !e.logOn(l) {
		return
	}
	e.logAt(l, 2, nil, fmt.Sprintf(format, args...))
}

// logPad is logf with one of the element's sink pads as the object, for
// what concerns that pad's stream.
func (e *vmafSink) logPad(l logLevel, s pipeline.Side, format string, args ...any) {
	if !e.logOn(l) {
		return
	}
	e.logAt(l, 2, e.pads[s&1], fmt.Sprintf(format, args...))
}

// caller is the Go source location skip frames above its caller.
func caller(skip int) (file, fn string, line int) {
	file = "vmafsink"
	if pc, f, n, ok := runtime.Caller(skip + 1); ok {
		file, line = filepath.Base(f), n
		if fu := runtime.FuncForPC(pc); fu != nil {
			fn = fu.Name()[strings.LastIndexByte(fu.Name(), '.')+1:]
		}
	}
	return file, fn, line
}

// logAt writes msg with obj (nil: the element) as the object and the
// location skip frames above it.
func (e *vmafSink) logAt(l logLevel, skip int, obj *C.GstPad, msg string) {
	file, fn, line := caller(skip)
	cf, cfn, cm := C.CString(file), C.CString(fn), C.CString(msg)
	defer C.free(unsafe.Pointer(cf))
	defer C.free(unsafe.Pointer(cfn))
	defer C.free(unsafe.Pointer(cm))
	var o *C.GObject
	pass := C.gboolean(0)
	if e != nil {
		o, pass = (*C.GObject)(unsafe.Pointer(e.self)), cbool(e.pass)
		if obj != nil {
			o = (*C.GObject)(unsafe.Pointer(obj))
		}
	}
	C.vs_log(pass, o, C.gint(l), cf, cfn, C.gint(line), cm)
}

// recoverPanic, deferred at an entry from C into Go whose element is
// known, turns a panic into an element error and calls failed, which
// makes the entry return its failure value: a Go panic must never take
// the host process down.
func (e *vmafSink) recoverPanic(where string, failed func()) {
	if v := recover(); v != nil {
		e.panicked(where, v)
		if failed != nil {
			failed()
		}
	}
}

// panicked reports a recovered panic: its text in an element error, the
// stack in the debug log. e may be nil (no element to report on yet).
func (e *vmafSink) panicked(where string, v any) {
	stack := debug.Stack()
	e.logAt(lvlError, 3, nil, fmt.Sprintf("panic in %s: %v\n%s", where, v, stack))
	if e != nil && e.self != nil {
		e.fail(errFailed, fmt.Sprintf("vmafsink internal error in %s: %v", where, v),
			fmt.Sprintf("panic: %v (stack in the debug log: GST_DEBUG=%s:1)", v, e.category()))
	}
}

// slogHandler writes the control plane's log (clients connecting,
// refused, leaving) to the vmafsink category with the element as object.
type slogHandler struct {
	e     *vmafSink
	attrs []slog.Attr
}

func gstLevel(l slog.Level) logLevel {
	switch {
	case l >= slog.LevelError:
		return lvlError
	case l >= slog.LevelWarn:
		return lvlWarning
	case l >= slog.LevelInfo:
		return lvlInfo
	}
	return lvlDebug
}

func (h *slogHandler) Enabled(_ context.Context, l slog.Level) bool { return h.e.logOn(gstLevel(l)) }

func (h *slogHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	add := func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	}
	for _, a := range h.attrs {
		add(a)
	}
	r.Attrs(add)
	h.e.logAt(gstLevel(r.Level), 4, nil, b.String())
	return nil
}

func (h *slogHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &slogHandler{e: h.e, attrs: append(append([]slog.Attr(nil), h.attrs...), as...)}
}

func (h *slogHandler) WithGroup(string) slog.Handler { return h }
