// Package doc runs the commands the documentation shows, as written.
//
// The convention, for every section of README.md and every Markdown file
// under examples/, whoever writes it:
//
//   - A fenced block whose info string is "sh" is a command block. The
//     test runs it with bash (-e -o pipefail: a failing command fails the
//     test), in order with the other command blocks of the same file, in
//     one scratch directory per file. In that directory build, testdata,
//     examples and scripts are links to the checkout's (docs is empty), so a block that
//     says `build/vmaf-score -r ref.y4m ...` runs as written and what it
//     writes stays out of the checkout. A later block may use what an
//     earlier one made; a block that uses a file made further down fails.
//   - A command block the test cannot run starts with the line
//     "# not run by the doc test: REASON" (needs a GPU, several machines,
//     root, the network, ...). The reason is required and is shown to the
//     reader in the block itself; the test lists every such block.
//   - What a command prints goes in a separate "text" block, which is not
//     run (nor compared: scores move with the engine's last digits).
//   - Blocks indented by four spaces are not command blocks. The test
//     counts the ones that hold commands (a line starting with build/,
//     gst-launch-1.0, vmafctl, ffmpeg or python3) and logs them, so that
//     they can be brought under the convention by fencing them as sh.
//   - Every block runs with XDG_RUNTIME_DIR set to a fresh private
//     directory (so $XDG_RUNTIME_DIR/vmaf.sock binds), XDG_CACHE_HOME
//     inside it, GST_PLUGIN_PATH
//     set to the build, and a time limit of five minutes. GStreamer's
//     debug log (errors, and the elements' INFO lines: each run's
//     pairs, scores and unpaired frames at EOS) goes to a file per
//     process, shown when the block fails, since a block's pipes often
//     keep what gst-launch printed from its output.
//
// The scripts in examples/gst-launch are run by TestExampleScripts.
package doc

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const notRunPrefix = "# not run by the doc test:"

// block is one fenced command block.
type block struct {
	file   string
	line   int // of the opening fence, from 1
	indent int // the opening fence's indentation (in a list item), cut from each line
	script string
	reason string // why it is not run; "" when it is
}

// parseBlocks returns a Markdown file's command blocks and the indented
// blocks that hold commands (by their first line number).
func parseBlocks(path string, text string) (blocks []block, indented []int, err error) {
	var cur *block
	var body []string
	inOther := false
	lastBlank, indentStart := true, 0
	commandLine := regexp.MustCompile(`^    (build/|gst-launch-1.0|GST_PLUGIN_PATH=|vmafctl|ffmpeg|python3|\./)`)
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case cur != nil && strings.HasPrefix(trimmed, "```"):
			cur.script = strings.Join(body, "\n") + "\n"
			if first, _, _ := strings.Cut(cur.script, "\n"); strings.HasPrefix(first, notRunPrefix) {
				cur.reason = strings.TrimSpace(strings.TrimPrefix(first, notRunPrefix))
				if cur.reason == "" {
					return nil, nil, fmt.Errorf("%s:%d: a block not run needs its reason after %q", path, cur.line, notRunPrefix)
				}
			}
			blocks = append(blocks, *cur)
			cur, body = nil, nil
		case cur != nil:
			cut := min(cur.indent, len(line)-len(strings.TrimLeft(line, " ")))
			body = append(body, line[cut:])
		case inOther:
			if strings.HasPrefix(trimmed, "```") {
				inOther = false
			}
		case strings.HasPrefix(trimmed, "```"):
			if strings.TrimSpace(strings.TrimPrefix(trimmed, "```")) == "sh" {
				cur = &block{file: path, line: n, indent: len(line) - len(strings.TrimLeft(line, " "))}
			} else {
				inOther = true
			}
		default:
			if lastBlank && commandLine.MatchString(line) && indentStart == 0 {
				indented = append(indented, n)
				indentStart = n
			}
			if trimmed == "" {
				indentStart = 0
			}
		}
		lastBlank = trimmed == ""
	}
	if cur != nil {
		return nil, nil, fmt.Errorf("%s:%d: unclosed code block", path, cur.line)
	}
	return blocks, indented, sc.Err()
}

// checkout is the repository root and the build directory.
func checkout(t *testing.T) (root, build string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	build = os.Getenv("VMAFSINK_BUILD_DIR")
	if build == "" {
		build = filepath.Join(root, "build")
	}
	if _, err := os.Stat(filepath.Join(build, "vmaf-score")); err != nil {
		t.Fatalf("the doc test runs the built programs: %v (meson setup build && meson compile -C build)", err)
	}
	return root, build
}

// scratch makes a directory laid out like the checkout for the blocks of
// one file to run in.
func scratch(t *testing.T, root, build string) string {
	t.Helper()
	dir := t.TempDir()
	for name, target := range map[string]string{
		"build": build, "testdata": filepath.Join(root, "testdata"),
		"examples": filepath.Join(root, "examples"), "scripts": filepath.Join(root, "scripts"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	// docs is where the README's plot examples draw their figures: an
	// empty directory here, so that a run never redraws the checkout's.
	if err := os.Mkdir(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func blockEnv(t *testing.T, build string) []string {
	runtime, err := os.MkdirTemp("", "doc-runtime-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(runtime) })
	if err := os.Chmod(runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	// Caches (vmaf-tune's) go to the test's own directory, not the user's.
	return append(os.Environ(), "XDG_RUNTIME_DIR="+runtime, "XDG_CACHE_HOME="+filepath.Join(runtime, "cache"), "GST_PLUGIN_PATH="+build)
}

// runBlocks runs a file's command blocks in order.
func runBlocks(t *testing.T, path string) {
	root, build := checkout(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(root, path)
	blocks, indented, err := parseBlocks(rel, string(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(indented) > 0 {
		t.Logf("%s: %d indented blocks with commands are not run (fence them as sh): lines %v", rel, len(indented), indented)
	}
	dir := scratch(t, root, build)
	logs := t.TempDir()
	env := append(blockEnv(t, build), gstLogEnv(logs)...)
	notRun := 0
	for _, b := range blocks {
		if b.reason != "" {
			t.Logf("%s:%d not run: %s", b.file, b.line, b.reason)
			notRun++
			continue
		}
		clearDir(t, logs)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", b.script)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("%s:%d: %v\n--- block\n%s--- output\n%s%s", b.file, b.line, err, b.script, out, gstLogTails(logs))
		}
	}
	t.Logf("%s: %d command blocks run, %d not", rel, len(blocks)-notRun, notRun)
}

func TestReadme(t *testing.T) {
	root, _ := checkout(t)
	runBlocks(t, filepath.Join(root, "README.md"))
}

func TestExampleDocs(t *testing.T) {
	root, _ := checkout(t)
	err := filepath.WalkDir(filepath.Join(root, "examples"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			t.Run(strings.TrimPrefix(p, root+"/"), func(t *testing.T) { runBlocks(t, p) })
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestParseBlocks(t *testing.T) {
	md := "text\n\n```sh\necho one\n```\n\n```text\nnot run\n```\n\n```sh\n" + notRunPrefix + " needs a GPU\nnvidia-smi\n```\n\n    build/vmaf-score -r a -d b\n    more\n\n```sh\n" + notRunPrefix + "\nx\n```\n"
	if _, _, err := parseBlocks("x.md", md); err == nil || !strings.Contains(err.Error(), "needs its reason") {
		t.Errorf("a block not run without a reason: %v", err)
	}
	md = strings.TrimSuffix(md, "```sh\n"+notRunPrefix+"\nx\n```\n")
	blocks, indented, err := parseBlocks("x.md", md)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || blocks[0].script != "echo one\n" || blocks[0].reason != "" || blocks[1].reason != "needs a GPU" || blocks[0].line != 3 {
		t.Errorf("blocks %+v", blocks)
	}
	// A block in a list item is indented with its fence.
	blocks, _, err = parseBlocks("x.md", "1. step:\n\n   ```sh\n   "+notRunPrefix+" needs a cluster\n   kubectl apply\n   ```\n")
	if err != nil || len(blocks) != 1 || blocks[0].reason != "needs a cluster" || blocks[0].script != notRunPrefix+" needs a cluster\nkubectl apply\n" {
		t.Errorf("indented fence: %+v %v", blocks, err)
	}
	if len(indented) != 1 || indented[0] != 16 {
		t.Errorf("indented %v", indented)
	}
}
