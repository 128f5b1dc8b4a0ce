package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The files vmaf_score_files reads and writes: inputs that are no list
// of other files, and result files inside the output directory only.

// resultFile picks the JSON file a run writes: output, in the output
// directory, kept after the call; or a new file there, removed once its
// frames are in the reply (keep false). A named output is claimed until
// done is called: a second call naming it meanwhile is refused.
func (s *filesServer) resultFile(output string) (path string, keep bool, done func(), err error) {
	if output == "" {
		f, err := os.CreateTemp(s.outDir, "vmaf-score-*.json")
		if err != nil {
			return "", false, nil, fmt.Errorf("result file: %w", err)
		}
		f.Close()
		return f.Name(), false, func() {}, nil
	}
	if err := checkOutputName(output); err != nil {
		return "", false, nil, err
	}
	path = filepath.Join(s.outDir, output)
	// A link there could send the results anywhere this process may write.
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return "", false, nil, fmt.Errorf("output: %s exists and is not a regular file", path)
	}
	s.writingMu.Lock()
	defer s.writingMu.Unlock()
	if s.writing[output] {
		return "", false, nil, fmt.Errorf("output: %s is being written by another call; name another file or call again when it has finished", output)
	}
	s.writing[output] = true
	return path, true, func() {
		s.writingMu.Lock()
		delete(s.writing, output)
		s.writingMu.Unlock()
	}, nil
}

// checkOutputName accepts a plain file name ending in .json: results go
// into the output directory and nowhere else.
func checkOutputName(name string) error {
	switch {
	case strings.ContainsRune(name, '/') || strings.ContainsRune(name, filepath.Separator):
		return fmt.Errorf("output: %q is not a plain file name; results go into the server's output directory (vmaf-score mcp --output-dir)", name)
	case name == ".json" || strings.HasPrefix(name, "."):
		return fmt.Errorf("output: %q: a file name may not start with a dot", name)
	case !strings.HasSuffix(name, ".json"):
		return fmt.Errorf("output: %q does not end in .json (results are written as JSON)", name)
	case len(name) > 255:
		return fmt.Errorf("output: the file name is %d bytes, more than 255", len(name))
	}
	return nil
}
