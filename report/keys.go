package report

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf"
)

// ModelKeys names each model's outputs in one document (or one pooled
// summary), so that two models are never pooled under one name: a model
// keeps its own Name (libvmaf's metric key) unless a different model used
// that name earlier, as when a swap replaces vmaf_v0.6.1 by
// vmaf_v0.6.1neg, both called "vmaf". It then gets a key of its own: its
// built-in version or file name (vmaf_v0.6.1neg), or its name numbered
// (vmaf_2), and its outputs are renamed with it (vmaf_b_bagging becomes
// vmaf_v0.6.3_bagging). A run that never changes models is written
// unchanged. The zero value is ready to use; it is not safe for
// concurrent use.
type ModelKeys struct {
	keys  map[modelID]string
	owner map[string]modelID
	seen  []*vmaf.Model // in the order first seen

	current []string // the keys of the models of the last frame
	out     []Metric // renamed metrics, reused
}

type modelID struct{ name, version string }

// Swap records where the models scoring a document changed.
type Swap struct {
	Frame    int    // the first frame scored by the new models
	From, To string // their keys, comma-separated when several
}

// Rename returns metrics with the outputs of models under their keys
// (metrics itself when no model needs a new key; otherwise a slice reused
// by the next call), and, when the models differ from the previous
// call's, the change, with ok set.
func (k *ModelKeys) Rename(frame int, models []*vmaf.Model, metrics []Metric) (out []Metric, sw Swap, ok bool) {
	out = metrics
	renamed := false
	changed := len(models) != len(k.current)
	for i, m := range models {
		key := k.key(m)
		changed = changed || k.current[i] != key
		if key == m.Name {
			continue
		}
		if !renamed {
			k.out = append(k.out[:0], metrics...)
			out, renamed = k.out, true
		}
		for _, name := range m.OutputNames() {
			for j := range out {
				if out[j].Name == name {
					out[j].Name = key + strings.TrimPrefix(name, m.Name)
				}
			}
		}
	}
	if !changed {
		return out, Swap{}, false
	}
	sw = Swap{Frame: frame, From: strings.Join(k.current, ",")}
	k.current = k.current[:0]
	for _, m := range models {
		k.current = append(k.current, k.keys[modelID{m.Name, m.Version}])
	}
	sw.To = strings.Join(k.current, ",")
	return out, sw, sw.From != ""
}

// Seen lists the models seen so far, first seen first.
func (k *ModelKeys) Seen() []*vmaf.Model { return append([]*vmaf.Model(nil), k.seen...) }

// Key returns the key of a model seen so far.
func (k *ModelKeys) Key(m *vmaf.Model) (string, bool) {
	key, ok := k.keys[modelID{m.Name, m.Version}]
	return key, ok
}

func (k *ModelKeys) key(m *vmaf.Model) string {
	id := modelID{m.Name, m.Version}
	if key, ok := k.keys[id]; ok {
		return key
	}
	if k.keys == nil {
		k.keys, k.owner = map[modelID]string{}, map[string]modelID{}
	}
	key := m.Name
	if _, taken := k.owner[key]; taken {
		key = strings.TrimSuffix(filepath.Base(m.Version), ".json")
		// A file's name is not always fit to be a key: "my model.json",
		// or one named like a feature, goes by a numbered name instead.
		if _, taken := k.owner[key]; taken || m.Version == "" || vmaf.CheckModelName(key) != nil {
			for n := 2; ; n++ {
				key = m.Name + "_" + strconv.Itoa(n)
				if _, taken := k.owner[key]; !taken {
					break
				}
			}
		}
	}
	k.keys[id], k.owner[key] = key, id
	k.seen = append(k.seen, m)
	return key
}
