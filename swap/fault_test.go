package swap

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFaultListHostileDir lists a model directory set up by an attacker:
// a FIFO named like a model (listing once blocked on it for ever), links
// leading out of the directory to a secret (its bytes were quoted in the
// parse error), and a link to a model inside, which stays usable.
func TestFaultListHostileDir(t *testing.T) {
	dir, _ := modelDir(t)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "shadow")
	if err := os.WriteFile(secret, []byte("S3CR3T:$y$hash:19000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Symlink(secret, filepath.Join(dir, "shadow.json"))
	os.Symlink(filepath.Join(dir, "house.json"), filepath.Join(dir, "alias.json"))
	reg, err := NewRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}

	done := make(chan []Entry, 1)
	go func() {
		l, err := reg.List(context.Background())
		if err != nil {
			t.Error(err)
		}
		done <- l
	}()
	var list []Entry
	select {
	case list = <-done:
	case <-time.After(time.Minute):
		t.Fatal("listing blocked")
	}
	names := map[string]Entry{}
	for _, e := range list {
		names[e.Name] = e
		if e.Err != nil && strings.Contains(e.Err.Error(), "S3CR3T") {
			t.Errorf("%s: error quotes a file's content: %v", e.Name, e.Err)
		}
	}
	for _, name := range []string{"fifo", "shadow", "sneaky"} {
		if e, ok := names[name]; ok {
			t.Errorf("%s listed: %+v", name, e)
		}
	}
	if e, ok := names["alias"]; !ok || e.Err != nil {
		t.Errorf("a link to a model inside the directory: %+v (listed %v)", e, ok)
	}

	// Naming the FIFO or the escaping link in a swap is refused at once.
	for _, model := range []string{"fifo", "shadow", filepath.Join(dir, "fifo.json"), "path=" + filepath.Join(dir, "shadow.json")} {
		ch := make(chan error, 1)
		go func() {
			spec, err := reg.Resolve(model, "")
			if err == nil {
				_, err = Load(spec)
			}
			ch <- err
		}()
		select {
		case err := <-ch:
			if err == nil || strings.Contains(err.Error(), "S3CR3T") {
				t.Errorf("%s: %v", model, err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: resolving blocked", model)
		}
	}
}

// TestFaultListCancelled: a cancelled listing stops and says why.
func TestFaultListCancelled(t *testing.T) {
	dir := t.TempDir()
	for i := range 20 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("m%02d.json", i)), []byte(fmt.Sprintf(smallModel, "integer_feature")), 0o644)
	}
	reg, _ := NewRegistry(dir)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	l, err := reg.List(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled listing: %d entries, error %v", len(l), err)
	}
}

// TestFaultRelativePath: a relative path would resolve against the host's
// working directory, which a client neither knows nor should learn.
func TestFaultRelativePath(t *testing.T) {
	dir, _ := modelDir(t)
	reg, _ := NewRegistry(dir)
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, filepath.Join(dir, "house.json"))
	if err != nil {
		t.Skip(err)
	}
	for _, model := range []string{rel, "path=" + rel, "./house.json", "path=house.json"} {
		_, err := reg.Resolve(model, "")
		if !errors.Is(err, ErrUnknownModel) || !strings.Contains(err.Error(), "absolute") || strings.Contains(err.Error(), wd) {
			t.Errorf("Resolve(%q): %v", model, err)
		}
	}
}

// TestFaultLongStrings: a 900 KB name once went into every record and the
// status history.
func TestFaultLongStrings(t *testing.T) {
	reg, _ := NewRegistry()
	long := strings.Repeat("n", MaxNameBytes+1)
	for _, tc := range []struct{ model, name string }{
		{"vmaf_v0.6.1", long},
		{"version=vmaf_v0.6.1:name=" + long, ""},
		{"version=vmaf_v0.6.1:" + strings.Repeat("x", MaxSpecBytes), ""},
	} {
		if _, err := reg.Resolve(tc.model, tc.name); !errors.Is(err, ErrBadSpec) || !strings.Contains(err.Error(), "at most") {
			t.Errorf("Resolve(%d-byte model, %d-byte name): %v", len(tc.model), len(tc.name), err)
		}
	}
	if _, err := reg.Resolve("vmaf_v0.6.1", strings.Repeat("n", MaxNameBytes)); err != nil {
		t.Errorf("a name at the limit: %v", err)
	}
}

// TestFaultNotAModelFile: a file beside the models that is not one is not
// parsed at a client's request.
func TestFaultNotAModelFile(t *testing.T) {
	dir, _ := modelDir(t)
	reg, _ := NewRegistry(dir)
	if _, err := reg.Resolve(filepath.Join(dir, "notes.txt"), ""); !errors.Is(err, ErrInvalidModel) || !strings.Contains(err.Error(), ".json") {
		t.Errorf("notes.txt: %v", err)
	}
}

// TestFaultSwapNames: a swap's name with a newline, comma, space, '/' or
// '"', or one naming a feature (integer_adm2) or a results field
// (frameNum), was taken, and broke the XML results or pooled VMAF under
// ADM2. Each is refused before anything is read.
func TestFaultSwapNames(t *testing.T) {
	reg, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a\nb", "a,b", "a b", "a/b", `a"b`, "frameNum", "integer_adm2", "type", "vmaf_v0.6.1:name=x"} {
		if _, err := reg.Resolve("vmaf_v0.6.1", name); !errors.Is(err, ErrBadSpec) {
			t.Errorf("name %q: %v", name, err)
		}
		if strings.Contains(name, ":") {
			continue // a spec of its own
		}
		if _, err := reg.Resolve("version=vmaf_v0.6.1:name="+name, ""); err == nil {
			t.Errorf("spec with name %q accepted", name)
		}
	}
	if _, err := reg.Resolve("vmaf_v0.6.1", "house_model.v2"); err != nil {
		t.Errorf("a good name: %v", err)
	}
}
