package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// pair is a distorted clip and its reference, each a .y4m or .y4m.xz path.
type pair struct {
	name      string // <content>_<W>x<H>_<distortion>
	ref, dist string
	scores    string // the stored libvmaf log, "" when there is none
}

// findPairs lists the pairs in dir/clips: every clip whose distortion part
// is not "ref" and whose <content>_<W>x<H>_ref clip exists. A clip present
// both plain and compressed is read plain.
func findPairs(dir string) ([]pair, error) {
	entries, err := os.ReadDir(filepath.Join(dir, "clips"))
	if err != nil {
		return nil, fmt.Errorf("listing clips: %w", err)
	}
	clips := map[string]string{} // name -> path
	for _, e := range entries {
		name, ok := clipName(e.Name())
		if !ok || e.IsDir() {
			continue
		}
		if prev, dup := clips[name]; dup && !strings.HasSuffix(prev, ".xz") {
			continue
		}
		clips[name] = filepath.Join(dir, "clips", e.Name())
	}
	var pairs []pair
	for name, path := range clips {
		parts := strings.SplitN(name, "_", 3)
		if len(parts) < 3 || parts[2] == "ref" {
			continue
		}
		ref, ok := clips[parts[0]+"_"+parts[1]+"_ref"]
		if !ok {
			return nil, fmt.Errorf("%s: no reference clip %s_%s_ref.y4m[.xz]", path, parts[0], parts[1])
		}
		p := pair{name: name, ref: ref, dist: path}
		if s := filepath.Join(dir, "scores", name+".vmaf.json"); fileExists(s) {
			p.scores = s
		}
		pairs = append(pairs, p)
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].name < pairs[j].name })
	return pairs, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// clipName strips .y4m or .y4m.xz from a file name.
func clipName(file string) (string, bool) {
	for _, ext := range []string{".y4m", ".y4m.xz"} {
		if n, ok := strings.CutSuffix(file, ext); ok && n != "" {
			return n, true
		}
	}
	return "", false
}

// openClip opens a clip, decompressing .xz with the xz tool.
func openClip(path string) (io.ReadCloser, error) {
	if !strings.HasSuffix(path, ".xz") {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("opening clip: %w", err)
		}
		return f, nil
	}
	cmd := exec.Command("xz", "-dc", path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("decompressing %s: %w", path, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("decompressing %s: %w", path, err)
	}
	return &xzReader{ReadCloser: out, cmd: cmd}, nil
}

type xzReader struct {
	io.ReadCloser
	cmd *exec.Cmd
}

func (x *xzReader) Close() error {
	x.ReadCloser.Close()
	// Closing early (only some frames wanted) makes xz die of SIGPIPE,
	// which is no error for us.
	x.cmd.Wait()
	return nil
}
