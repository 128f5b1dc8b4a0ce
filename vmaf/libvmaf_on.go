//go:build libvmaf

package vmaf

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf/internal/clibvmaf"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// libvmafScorer drives libvmaf. libvmaf 3.2 computes motion2 only when the
// stream is flushed, so its per-frame Results all arrive from Flush.
type libvmafScorer struct {
	cfg    Config
	v      *clibvmaf.Context
	format *Picture
	next   int
	epochs []libvmafEpoch // model sets, each from its first frame on
	// skipped frames are read (libvmaf has no motion-only read, so they
	// cost as much as scored ones) but not reported.
	skipped  map[int]bool
	ended    bool
	features []feature.Settings // the extra features requested
}

type libvmafEpoch struct {
	first  int
	models []*Model
	loaded []*clibvmaf.Model
	names  []string // features read back per frame
}

func newLibvmafScorer(cfg Config) (scorer, error) {
	v, err := clibvmaf.New(max(cfg.Threads, 0), max(cfg.Subsample, 1))
	if err != nil {
		return nil, fmt.Errorf("vmaf: %w", err)
	}
	s := &libvmafScorer{cfg: cfg, v: v}
	for _, f := range cfg.Features {
		st, err := parseFeature(f)
		if err != nil {
			s.close()
			return nil, err
		}
		var opts [][2]string
		_, list, _ := strings.Cut(strings.TrimSpace(f), "=")
		for _, kv := range strings.Split(list, ":") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				opts = append(opts, [2]string{k, v})
			}
		}
		if err := v.UseFeature(st.Kind().Name, opts); err != nil {
			s.close()
			return nil, fmt.Errorf("vmaf: %w", err)
		}
		s.features = append(s.features, st)
	}
	if err := s.setModels(cfg.Models); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *libvmafScorer) setModels(models []*Model) error {
	if s.ended {
		return errEnded
	}
	if len(models) == 0 {
		return fmt.Errorf("vmaf: no model configured")
	}
	e := libvmafEpoch{first: s.next, models: models}
	for _, m := range models {
		lm, err := loadLibvmafModel(m)
		if err != nil {
			return err
		}
		e.loaded = append(e.loaded, lm)
		if err := s.v.UseModel(lm); err != nil {
			return fmt.Errorf("vmaf: model %s: %w", m.Name, err)
		}
		for _, f := range m.FeatureNames() {
			if !slices.Contains(e.names, f) {
				e.names = append(e.names, f)
			}
		}
	}
	e.names = append(e.names, "integer_motion")
	for _, st := range s.features {
		e.names = append(e.names, st.Kind().Outputs(feature.Format{Chroma: feature.Chroma420}, st)...)
	}
	s.epochs = append(s.epochs, e)
	return nil
}

func loadLibvmafModel(m *Model) (*clibvmaf.Model, error) {
	version, path := "", ""
	switch {
	case slices.Contains(BuiltinModelVersions(), m.Version):
		version = m.Version
	case m.Version != "":
		if _, err := os.Stat(m.Version); err != nil {
			return nil, fmt.Errorf("vmaf: model %s: libvmaf needs its file: %w", m.Name, err)
		}
		path = m.Version
	default:
		return nil, fmt.Errorf("vmaf: model %s is neither a built-in version nor a file libvmaf can load", m.Name)
	}
	lm, err := clibvmaf.LoadModel(version, path, m.Name, m.IsCollection())
	if err != nil {
		return nil, fmt.Errorf("vmaf: %w", err)
	}
	return lm, nil
}

func (s *libvmafScorer) submit(ref, dist *Picture, release func(), skip bool) error {
	if s.ended {
		return errEnded
	}
	if err := checkPair(s.format, ref, dist, s.next); err != nil {
		return err
	}
	if s.format == nil {
		f := *ref
		f.Planes = [3][]byte{}
		s.format = &f
	}
	// libvmaf copies the pictures, so the caller's memory is free at once.
	err := s.v.Read(cPicture(ref), cPicture(dist), s.next)
	if release != nil {
		release()
	}
	if err != nil {
		return fmt.Errorf("vmaf: %w", err)
	}
	if skip {
		if s.skipped == nil {
			s.skipped = map[int]bool{}
		}
		s.skipped[s.next] = true
	}
	s.next++
	return nil
}

func cPicture(p *Picture) *clibvmaf.Picture {
	formats := map[Chroma]int{Chroma420: clibvmaf.YUV420, Chroma422: clibvmaf.YUV422, Chroma444: clibvmaf.YUV444, Chroma400: clibvmaf.YUV400}
	c := &clibvmaf.Picture{Format: formats[p.Chroma], BitDepth: p.BitDepth, Width: p.Width, Height: p.Height,
		Planes: p.numPlanes(), Data: p.Planes, Strides: p.Strides}
	for i := 0; i < c.Planes; i++ {
		w, _ := p.PlaneSize(i)
		if i > 0 {
			// libvmaf's chroma planes are rounded down at odd sizes.
			w = libvmafChromaWidth(p)
		}
		c.RowBytes[i] = w * p.bytesPerSample()
	}
	return c
}

func libvmafChromaWidth(p *Picture) int {
	if p.Chroma == Chroma444 {
		return p.Width
	}
	return p.Width >> 1
}

func (s *libvmafScorer) flush() error {
	if s.ended {
		return errEnded
	}
	defer s.close()
	if s.next == 0 {
		return nil
	}
	if err := s.v.Flush(); err != nil {
		return fmt.Errorf("vmaf: %w", err)
	}
	var r Result
	for i := 0; i < s.next; i += max(s.cfg.Subsample, 1) {
		if s.skipped[i] {
			continue
		}
		e := s.epochAt(i)
		r.Index, r.Models, r.Metrics = i, e.models, r.Metrics[:0]
		for k, lm := range e.loaded {
			if err := s.v.Score(lm, i); err != nil {
				return fmt.Errorf("vmaf: model %s: %w", e.models[k].Name, err)
			}
		}
		for _, name := range e.names {
			s.appendFeature(&r, name, i)
		}
		for _, m := range e.models {
			for _, name := range m.metricNames() {
				s.appendFeature(&r, name, i)
			}
		}
		if s.cfg.OnResult != nil {
			s.cfg.OnResult(&r)
		}
	}
	return nil
}

// appendFeature adds libvmaf's value of name when it has one. libvmaf
// files some features under long internal names
// (VMAF_integer_feature_adm2_score for integer_adm2) and prints the short
// alias, so both are tried.
func (s *libvmafScorer) appendFeature(r *Result, name string, index int) {
	keys := []string{name}
	if rest, ok := strings.CutPrefix(name, "integer_"); ok {
		keys = append(keys, "VMAF_integer_feature_"+rest+"_score")
	}
	if name == "integer_motion" {
		keys = append(keys, "VMAF_integer_feature_motion_sad_score")
	}
	for _, p := range []struct{ short, long string }{
		{"vif_scale", "VMAF_feature_"}, {"adm", "VMAF_feature_"}, {"aim", "VMAF_feature_"}, {"motion", "VMAF_feature_"},
		{"cambi", "Cambi_feature_"}, {"speed_chroma", "Speed_chroma_feature_"}, {"speed_temporal", "Speed_temporal_feature_"},
	} {
		if strings.HasPrefix(name, p.short) {
			keys = append(keys, p.long+name+"_score")
		}
	}
	for _, k := range keys {
		if v, ok := s.v.Feature(k, index); ok {
			r.Metrics = append(r.Metrics, Metric{name, v})
			return
		}
	}
}

func (s *libvmafScorer) epochAt(i int) *libvmafEpoch {
	for k := len(s.epochs) - 1; k > 0; k-- {
		if s.epochs[k].first <= i {
			return &s.epochs[k]
		}
	}
	return &s.epochs[0]
}

func (s *libvmafScorer) close() {
	if s.ended {
		return
	}
	s.ended = true
	for _, e := range s.epochs {
		for _, lm := range e.loaded {
			lm.Close()
		}
	}
	s.v.Close()
}

func (s *libvmafScorer) metricNames() []string {
	e := s.epochs[len(s.epochs)-1]
	names := append([]string(nil), e.names...)
	for _, m := range e.models {
		names = append(names, m.metricNames()...)
	}
	return names
}

// aggregateMetrics: libvmaf's are not read back.
func (s *libvmafScorer) aggregateMetrics() []Metric { return nil }
