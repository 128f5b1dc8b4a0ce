// Package onnx runs learned quality models with ONNX Runtime, opened at
// run time (dlopen), so that everything else builds and runs without it.
//
// The runtime is one per process: ONNX Runtime's environment is global to
// the library, so the first model loaded fixes which library is used.
package onnx

/*
#cgo LDFLAGS: -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

// The file this code was linked into: the program, or the GStreamer
// plugin's shared object, beside which the library may be installed.
static const char *vmaf_onnx_self(void) {
	Dl_info info;
	if (dladdr((void *)&vmaf_onnx_self, &info) == 0) return NULL;
	return info.dli_fname;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// LibraryName is the file name of ONNX Runtime's shared library.
const LibraryName = "libonnxruntime.so.1"

// LibraryEnv names a library to use instead of the one found beside the
// program.
const LibraryEnv = "VMAF_ORT_LIBRARY"

// ErrNoRuntime reports that no ONNX Runtime library could be opened.
var ErrNoRuntime = errors.New("ONNX Runtime is not available")

// InstallHint says how to get the library.
const InstallHint = "install ONNX Runtime 1.24 (scripts/deps.sh places onnxruntime-node@1.24.1's " + LibraryName +
	" beside the programs), or name a library with " + LibraryEnv + ", vmaf-score --ort-library or the element's ort-library"

var state struct {
	sync.Mutex
	chosen  string // a library named by SetLibrary
	loaded  string // the library in use, once initialised
	err     error  // why initialisation failed, once tried
	tried   bool
	version string
}

// SetLibrary names the library to use. It must be called before the first
// model loads; naming another library once one is in use is an error.
func SetLibrary(path string) error {
	state.Lock()
	defer state.Unlock()
	if path == "" {
		return nil
	}
	if state.tried && state.err == nil {
		if same(state.loaded, path) {
			return nil
		}
		return fmt.Errorf("onnxruntime: %s is already in use; a process can use one library (asked for %s)", state.loaded, path)
	}
	state.chosen, state.tried, state.err = path, false, nil
	return nil
}

func same(a, b string) bool {
	ra, ea := filepath.EvalSymlinks(a)
	rb, eb := filepath.EvalSymlinks(b)
	return a == b || (ea == nil && eb == nil && ra == rb)
}

// Candidates lists where the library is looked for, in order: the one
// SetLibrary named, $VMAF_ORT_LIBRARY, beside the object this code is
// linked into (the program or the plugin) and in its lib/ folder, beside
// the running program, then the system's library path.
func Candidates() []string {
	state.Lock()
	defer state.Unlock()
	return candidatesLocked()
}

func candidatesLocked() []string {
	if chosen := state.chosen; chosen != "" {
		return []string{chosen}
	}
	if env := os.Getenv(LibraryEnv); env != "" {
		return []string{env}
	}
	var dirs []string
	if p := C.vmaf_onnx_self(); p != nil {
		// A plugin found through a relative GST_PLUGIN_PATH is loaded by
		// a relative name, relative to the directory the host started in.
		if f, err := filepath.Abs(C.GoString(p)); err == nil {
			dirs = append(dirs, filepath.Dir(f))
		}
	}
	if exe, err := os.Executable(); err == nil {
		dirs = append(dirs, filepath.Dir(exe))
	}
	var out []string
	seen := map[string]bool{}
	for _, d := range dirs {
		for _, p := range []string{filepath.Join(d, LibraryName), filepath.Join(d, "lib", LibraryName)} {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return append(out, LibraryName) // the dynamic linker's search path
}

// Init opens the library and creates ONNX Runtime's environment, once;
// later calls return the first call's result.
func Init() error {
	state.Lock()
	defer state.Unlock()
	if state.tried {
		return state.err
	}
	state.tried = true
	state.err = initLocked()
	return state.err
}

func initLocked() error {
	cands := candidatesLocked()
	var tried []string
	for _, c := range cands {
		if c != LibraryName {
			if _, err := os.Stat(c); err != nil {
				tried = append(tried, c+" (absent)")
				continue
			}
		}
		ort.SetSharedLibraryPath(c)
		if err := ort.InitializeEnvironment(ort.WithLogLevelFatal()); err != nil {
			if ort.IsInitialized() {
				_ = ort.DestroyEnvironment()
			}
			tried = append(tried, c+": "+firstLine(err.Error()))
			if state.chosen != "" || os.Getenv(LibraryEnv) != "" {
				break
			}
			continue
		}
		state.loaded = c
		state.version = ort.GetVersion()
		return nil
	}
	return fmt.Errorf("%w (tried %s): %s", ErrNoRuntime, strings.Join(tried, "; "), InstallHint)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// Version is the loaded library's version, e.g. "1.24.1"; it opens the
// library if no model has yet.
func Version() (string, error) {
	if err := Init(); err != nil {
		return "", err
	}
	state.Lock()
	defer state.Unlock()
	return state.version, nil
}

// Library is the path of the library in use, "" before one is.
func Library() string {
	state.Lock()
	defer state.Unlock()
	return state.loaded
}
