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
)

// logLevel is a GstDebugLevel of the vmafsink debug category.
type logLevel C.gint

const (
	lvlError   logLevel = C.GST_LEVEL_ERROR
	lvlWarning logLevel = C.GST_LEVEL_WARNING
	lvlInfo    logLevel = C.GST_LEVEL_INFO
	lvlDebug   logLevel = C.GST_LEVEL_DEBUG
	lvlLog     logLevel = C.GST_LEVEL_LOG
)

// logOn reports whether the category logs at l. Callers on the per-frame
// path test it before building their arguments, so that logging costs one
// threshold read when it is off.
func logOn(l logLevel) bool { return logLevel(C.vs_debug_threshold()) >= l }

// logf writes one line to the vmafsink category with the element as its
// object and the caller's file, function and line.
func (e *vmafSink) logf(l logLevel, format string, args ...any) {
	if !logOn(l) {
		return
	}
	e.logAt(l, 2, fmt.Sprintf(format, args...))
}

func (e *vmafSink) logAt(l logLevel, skip int, msg string) {
	file, fn, line := "vmafsink", "", 0
	if pc, f, n, ok := runtime.Caller(skip); ok {
		file, line = filepath.Base(f), n
		if fu := runtime.FuncForPC(pc); fu != nil {
			fn = fu.Name()[strings.LastIndexByte(fu.Name(), '.')+1:]
		}
	}
	cf, cfn, cm := C.CString(file), C.CString(fn), C.CString(msg)
	defer C.free(unsafe.Pointer(cf))
	defer C.free(unsafe.Pointer(cfn))
	defer C.free(unsafe.Pointer(cm))
	var self *C.GstElement
	if e != nil {
		self = e.self
	}
	C.vs_log(self, C.gint(l), cf, cfn, C.gint(line), cm)
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
	e.logAt(lvlError, 3, fmt.Sprintf("panic in %s: %v\n%s", where, v, stack))
	if e != nil && e.self != nil {
		e.fail(errFailed, fmt.Sprintf("vmafsink internal error in %s: %v", where, v),
			fmt.Sprintf("panic: %v (stack in the debug log: GST_DEBUG=vmafsink:1)", v))
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

func (h *slogHandler) Enabled(_ context.Context, l slog.Level) bool { return logOn(gstLevel(l)) }

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
	h.e.logAt(gstLevel(r.Level), 4, b.String())
	return nil
}

func (h *slogHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &slogHandler{e: h.e, attrs: append(append([]slog.Attr(nil), h.attrs...), as...)}
}

func (h *slogHandler) WithGroup(string) slog.Handler { return h }
