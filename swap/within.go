package swap

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutside is a file Within refuses for its place.
var ErrOutside = errors.New("outside the allowed directories")

// Within resolves path (following symlinks, so a link cannot lead out)
// and checks that it is a regular file inside one of the registry's
// directories; it returns the resolved path. It is the check model files
// get, for other files a client names (vmaf-score mcp's videos), without
// the model files' extension and size rules. Errors wrap ErrOutside for a
// file outside the directories.
func (r *Registry) Within(path string) (string, error) {
	switch {
	case path == "":
		return "", errors.New("empty path")
	case !filepath.IsAbs(path):
		// Relative to what? The server's working directory is nothing a
		// client knows or should learn.
		return "", fmt.Errorf("%s: not an absolute path", path)
	case len(r.dirs) == 0:
		return "", fmt.Errorf("%s: %w (none is allowed)", path, ErrOutside)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(path))
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if !r.inside(real) {
		return "", fmt.Errorf("%s: %w (%s)", path, ErrOutside, strings.Join(r.dirs, ", "))
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		// A FIFO or a device would block a reader or never end.
		return "", fmt.Errorf("%s is not a regular file", path)
	}
	return real, nil
}
