package swap

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf"
)

// Errors a swap request can fail with; they wrap the detailed reason.
var (
	ErrBadSpec      = errors.New("bad model spec")
	ErrUnknownModel = errors.New("unknown model")
	ErrForbidden    = errors.New("model path outside the allowed directories")
	ErrInvalidModel = errors.New("invalid model")
	ErrUnsupported  = errors.New("model not supported by the engine")
	ErrBusy         = errors.New("too many swaps being prepared")
)

// Bounds on what a client may ask for: a name is repeated in every record
// and status reply, so it is kept short.
const (
	MaxSpecBytes = 4096
	MaxNameBytes = 256
)

// maxModelFiles bounds what a listing reads, so that a directory of junk
// cannot make it expensive (vmaf bounds each file's size).
const maxModelFiles = 256

// Registry knows which models a swap may name: the built-in models, and
// model files (*.json) inside the allowed directories. A path elsewhere
// is refused, so a client of the control socket cannot make the process
// read arbitrary files.
type Registry struct {
	dirs []string // model-dirs, absolute with symlinks resolved
}

// NewRegistry makes a registry over dirs (the model-dirs property). Every
// directory must exist.
func NewRegistry(dirs ...string) (*Registry, error) {
	r := &Registry{}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		real, err := RealDir(d)
		if err != nil {
			return nil, fmt.Errorf("swap: model directory: %w", err)
		}
		if !slices.Contains(r.dirs, real) {
			r.dirs = append(r.dirs, real)
		}
	}
	return r, nil
}

// RealDir is directory d made absolute with its symlinks resolved, the
// form a path is compared with to tell whether it lies inside d; an error
// when d does not exist or is not a directory. vmaf-score's --output-dir
// is checked the same way as the directories a registry allows.
func RealDir(d string) (string, error) {
	abs, err := filepath.Abs(d)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory", d)
	}
	return real, nil
}

// Dirs returns the allowed directories.
func (r *Registry) Dirs() []string { return slices.Clone(r.dirs) }

// Entry is one model a swap may name.
type Entry struct {
	Name     string   // what to request: a built-in version or a file's base name
	Builtin  bool     // built in, rather than a file
	Path     string   // the file, for file models
	Features []string // the model's inputs, as libvmaf names them
	Err      error    // why the file cannot be used
}

// List returns the built-in models, then the model files of each allowed
// directory in name order, each parsed to report its features or error.
// Only regular files that resolve inside an allowed directory are listed:
// a FIFO named *.json would block a reader, and a link leading out would
// let a client read files it may not. ctx ends the listing early (with
// ctx's error): a client may cancel, and the caller may set a deadline.
func (r *Registry) List(ctx context.Context) ([]Entry, error) {
	var out []Entry
	for _, v := range vmaf.BuiltinModelVersions() {
		e := Entry{Name: v, Builtin: true}
		if m, err := vmaf.BuiltinModel(v); err != nil {
			e.Err = err
		} else {
			e.Features = m.FeatureNames()
		}
		out = append(out, e)
	}
	n := 0
	for _, d := range r.dirs {
		for _, path := range r.modelFiles(d) {
			if err := ctx.Err(); err != nil {
				return out, fmt.Errorf("swap: listing models: %w", err)
			}
			if n++; n > maxModelFiles {
				return out, nil
			}
			e := Entry{Name: strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".json"), ".onnx"), Path: path}
			if m, err := load(vmaf.ModelSpec{Path: path}); err != nil {
				e.Err = err
			} else {
				e.Features = m.FeatureNames()
			}
			out = append(out, e)
		}
	}
	return out, nil
}

// modelFiles lists the *.json files directly inside dir that are regular
// files, or links to regular files inside an allowed directory; sorted.
func (r *Registry) modelFiles(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !isModelFileName(dir, e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		switch t := e.Type(); {
		case t.IsRegular():
		case t&fs.ModeSymlink != 0:
			real, err := filepath.EvalSymlinks(path)
			if err != nil || !r.inside(real) || !isFile(real) {
				continue
			}
		default:
			continue
		}
		out = append(out, path)
	}
	sort.Strings(out)
	return out
}

// Resolve turns a requested model into a spec for vmaf.ParseModelSpec
// whose file, if any, is a real path inside an allowed directory. model
// is a built-in version, a model file's base name in an allowed
// directory, a file path, or libvmaf's key=value grammar; name, if set,
// is the metric name the model reports under.
func (r *Registry) Resolve(model, name string) (string, error) {
	model = strings.TrimSpace(model)
	switch {
	case model == "":
		return "", fmt.Errorf("%w: empty", ErrBadSpec)
	case len(model) > MaxSpecBytes:
		return "", fmt.Errorf("%w: %d bytes; a model spec is at most %d", ErrBadSpec, len(model), MaxSpecBytes)
	case len(name) > MaxNameBytes:
		return "", fmt.Errorf("%w: name of %d bytes; names are at most %d", ErrBadSpec, len(name), MaxNameBytes)
	}
	spec, err := vmaf.ParseModelSpecString(model)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrBadSpec, err)
	}
	if spec.Bare && spec.Path != "" && !strings.ContainsRune(spec.Path, filepath.Separator) {
		spec.Path = r.inDirs(spec.Path)
	}
	spec.Bare = false
	switch {
	case spec.Version != "":
		if !slices.Contains(vmaf.BuiltinModelVersions(), spec.Version) {
			return "", fmt.Errorf("%w: no built-in model %q (built in: %s)", ErrUnknownModel, spec.Version, strings.Join(vmaf.BuiltinModelVersions(), ", "))
		}
	case spec.Path != "":
		if spec.Path, err = r.allowedFile(spec.Path); err != nil {
			return "", err
		}
	}
	switch {
	case len(spec.Name) > MaxNameBytes:
		return "", fmt.Errorf("%w: name of %d bytes; names are at most %d", ErrBadSpec, len(spec.Name), MaxNameBytes)
	case name != "" && spec.Name != "" && spec.Name != name:
		return "", fmt.Errorf("%w: name %q given twice (spec says %q)", ErrBadSpec, name, spec.Name)
	case name != "" && spec.Name == "" && strings.ContainsAny(name, ":="):
		return "", fmt.Errorf("%w: name %q may not contain ':' or '='", ErrBadSpec, name)
	case name != "":
		spec.Name = name
	}
	if spec.Name != "" {
		// Refused here, before any file is read, with the reason.
		if err := vmaf.CheckModelName(spec.Name); err != nil {
			return "", fmt.Errorf("%w: %w", ErrBadSpec, err)
		}
	}
	return spec.String(), nil
}

// inDirs finds a model file named by its base name, with or without
// ".json", in the allowed directories; base itself when there is none.
func (r *Registry) inDirs(base string) string {
	file := strings.TrimSuffix(base, ".json") + ".json"
	if vmaf.IsLearnedModelPath(base) {
		file = base
	}
	for _, d := range r.dirs {
		if p := filepath.Join(d, file); isFile(p) {
			return p
		}
	}
	return base
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// allowedFile resolves path (following symlinks, so a link cannot lead
// out) and checks that it is a regular file inside an allowed directory.
func (r *Registry) allowedFile(path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("%w: empty path", ErrBadSpec)
	}
	if !filepath.IsAbs(path) {
		// Relative to what? The host's working directory is nothing a
		// client knows or should learn.
		return "", fmt.Errorf("%w: %q is neither a built-in model (%s), nor a model file in the model directories, nor an absolute path",
			ErrUnknownModel, path, strings.Join(vmaf.BuiltinModelVersions(), ", "))
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(path))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("%w: %q is neither a built-in model (%s) nor an existing file", ErrUnknownModel, path, strings.Join(vmaf.BuiltinModelVersions(), ", "))
		}
		return "", fmt.Errorf("%w: %s cannot be resolved", ErrInvalidModel, path)
	}
	if !r.inside(real) {
		if len(r.dirs) == 0 {
			return "", fmt.Errorf("%w: %s (no model directories are configured; set model-dirs)", ErrForbidden, path)
		}
		return "", fmt.Errorf("%w: %s is not inside %s", ErrForbidden, path, strings.Join(r.dirs, ", "))
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalidModel, err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%w: %s is not a regular file", ErrInvalidModel, path)
	}
	if vmaf.IsLearnedModelPath(real) {
		if fi.Size() > vmaf.MaxLearnedModelBytes {
			return "", fmt.Errorf("%w: %s is %d bytes; learned models are at most %d", ErrInvalidModel, path, fi.Size(), vmaf.MaxLearnedModelBytes)
		}
		return real, nil
	}
	if !strings.HasSuffix(real, ".json") {
		// Only model files: a client must not make the host parse other
		// files that happen to sit beside them.
		return "", fmt.Errorf("%w: %s is not a .json or .onnx model file", ErrInvalidModel, path)
	}
	if fi.Size() > vmaf.MaxModelFileBytes {
		return "", fmt.Errorf("%w: %s is %d bytes; model files are at most %d", ErrInvalidModel, path, fi.Size(), vmaf.MaxModelFileBytes)
	}
	return real, nil
}

func (r *Registry) inside(real string) bool {
	for _, d := range r.dirs {
		if rel, err := filepath.Rel(d, real); err == nil && rel != "." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != ".." {
			return true
		}
	}
	return false
}

// Load parses a spec that Resolve returned. Errors wrap ErrInvalidModel
// for a file the parser rejects (with its reason) and ErrBadSpec for a
// spec it rejects.
func Load(spec string) (*vmaf.Model, error) {
	s, err := vmaf.ParseModelSpecString(spec)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadSpec, err)
	}
	return load(s)
}

func load(s vmaf.ModelSpec) (*vmaf.Model, error) {
	// The reader in vmaf opens files non-blocking and reads only regular
	// files within its size bound, and its errors never quote a file's bytes.
	m, err := s.Load()
	switch {
	case err == nil:
		return m, nil
	case s.Path != "":
		return nil, fmt.Errorf("%w: %w", ErrInvalidModel, err)
	}
	return nil, fmt.Errorf("%w: %w", ErrBadSpec, err)
}

// isModelFileName says whether a file in dir is a model: a libvmaf .json
// model or a learned .onnx model, but not a learned model's card (X.json
// beside X.onnx) nor the learned models' registry.json.
func isModelFileName(dir, name string) bool {
	switch {
	case vmaf.IsLearnedModelPath(name):
		return true
	case !strings.HasSuffix(name, ".json") || name == "registry.json":
		return false
	}
	return !isFile(filepath.Join(dir, strings.TrimSuffix(name, ".json")+".onnx"))
}
