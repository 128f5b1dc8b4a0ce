package tune

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vmafsink/vmafsink/internal/version"
)

// Cache keeps probe results on disk, one small JSON file per probe,
// keyed by everything that decides the result: the source's content,
// the encoder and every argument it was given, the model, the aggregate,
// the frames sampled and this program's version. A nil *Cache caches
// nothing.
type Cache struct{ dir string }

// DefaultCacheDir is $XDG_CACHE_HOME/vmaf-tune (~/.cache/vmaf-tune).
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "vmaf-tune"), nil
}

// OpenCache uses dir, creating it.
func OpenCache(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	return &Cache{dir: dir}, nil
}

// CachedProbe is what the cache keeps of a probe.
type CachedProbe struct {
	Score   float64 `json:"vmaf"`
	Bytes   int64   `json:"bytes"`
	Seconds float64 `json:"seconds"`
	Frames  int     `json:"frames"`
	Codec   string  `json:"codec,omitempty"`
	Peak    float64 `json:"peak_kbps"`
}

// probeKey is the cache key's parts.
type probeKey struct {
	Source    string    `json:"source_sha256"`
	Encoder   string    `json:"encoder"`
	Args      []string  `json:"args"`
	Model     string    `json:"model"`
	Aggregate string    `json:"aggregate"`
	Segments  []Segment `json:"segments"`
	Version   string    `json:"version"`
}

func (k probeKey) hash() string {
	b, _ := json.Marshal(k)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func (c *Cache) path(k probeKey) string {
	h := k.hash()
	return filepath.Join(c.dir, h[:2], h+".json")
}

// get returns the cached probe, if any.
func (c *Cache) get(k probeKey) (CachedProbe, bool) {
	if c == nil {
		return CachedProbe{}, false
	}
	b, err := os.ReadFile(c.path(k))
	if err != nil {
		return CachedProbe{}, false
	}
	var v struct {
		Key   probeKey    `json:"key"`
		Probe CachedProbe `json:"probe"`
	}
	if json.Unmarshal(b, &v) != nil || v.Key.hash() != k.hash() || v.Probe.Seconds <= 0 {
		return CachedProbe{}, false
	}
	return v.Probe, true
}

// put stores a probe; a failure to write only loses the cache entry.
func (c *Cache) put(k probeKey, p CachedProbe) error {
	if c == nil {
		return nil
	}
	path := c.path(k)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(map[string]any{"key": k, "probe": p}, "", " ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".probe-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// HashFile is the SHA-256 of a file's content.
func HashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ModelIdentity names a model for the cache: its spec, and the content
// hash of a model file it names (a path= spec), so an edited file is a
// different model.
func ModelIdentity(spec string) string {
	id := spec
	for _, part := range strings.Split(spec, ":") {
		if p, ok := strings.CutPrefix(part, "path="); ok {
			if h, err := HashFile(p); err == nil {
				id += "@" + h
			} else if errors.Is(err, fs.ErrNotExist) {
				id += "@missing"
			}
		}
	}
	return id
}

func cacheVersion() string { return version.String() }
