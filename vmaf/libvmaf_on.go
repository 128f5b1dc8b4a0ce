//go:build libvmaf

package vmaf

/*
#cgo pkg-config: libvmaf
#include <stdlib.h>
#include <string.h>
#include <libvmaf/libvmaf.h>

// libvmaf's model entry points take a model handle out-parameter; these
// keep the Go side free of pointer-to-pointer juggling.
static VmafModel *load_model(const char *version, const char *path, const char *name, int *err) {
	VmafModel *m = NULL;
	VmafModelConfig cfg = { .name = name, .flags = VMAF_MODEL_FLAGS_DEFAULT };
	*err = path ? vmaf_model_load_from_path(&m, &cfg, path) : vmaf_model_load(&m, &cfg, version);
	return m;
}

static VmafModel *load_collection(const char *version, const char *path, const char *name, VmafModelCollection **c, int *err) {
	VmafModel *m = NULL;
	VmafModelConfig cfg = { .name = name, .flags = VMAF_MODEL_FLAGS_DEFAULT };
	*err = path ? vmaf_model_collection_load_from_path(&m, c, &cfg, path)
	            : vmaf_model_collection_load(&m, c, &cfg, version);
	return m;
}

static VmafContext *new_context(unsigned threads, unsigned subsample, int *err) {
	VmafContext *v = NULL;
	VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE, .n_threads = threads, .n_subsample = subsample };
	*err = vmaf_init(&v, cfg);
	return v;
}

static int copy_plane(VmafPicture *p, int i, const void *src, ptrdiff_t stride, size_t row) {
	for (unsigned y = 0; y < p->h[i]; y++)
		memcpy((char *)p->data[i] + y * p->stride[i], (const char *)src + y * stride, row);
	return 0;
}

static int read_pair(VmafContext *v, VmafPicture *ref, VmafPicture *dist, unsigned index) {
	return vmaf_read_pictures(v, ref, dist, index);
}

static int flush_context(VmafContext *v) { return vmaf_read_pictures(v, NULL, NULL, 0); }
*/
import "C"

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"unsafe"
)

// libvmafScorer drives libvmaf. libvmaf 3.2 computes motion2 only when the
// stream is flushed, so its per-frame Results all arrive from Flush.
type libvmafScorer struct {
	cfg    Config
	v      *C.VmafContext
	format *Picture
	next   int
	epochs []libvmafEpoch // model sets, each from its first frame on
	ended  bool
}

type libvmafEpoch struct {
	first  int
	models []*Model
	loaded []libvmafModel
	names  []string // features read back per frame
}

type libvmafModel struct {
	m          *C.VmafModel
	collection *C.VmafModelCollection
	name       *C.char
}

func newLibvmafScorer(cfg Config) (scorer, error) {
	var cerr C.int
	v := C.new_context(C.uint(max(cfg.Threads, 0)), C.uint(max(cfg.Subsample, 1)), &cerr)
	if cerr != 0 {
		return nil, fmt.Errorf("vmaf: libvmaf init failed (%d)", int(cerr))
	}
	s := &libvmafScorer{cfg: cfg, v: v}
	for _, f := range cfg.Features {
		if _, ok := extraFeatures[f]; !ok {
			s.close()
			return nil, fmt.Errorf("vmaf: unknown feature %q (want psnr, float_ssim or float_ms_ssim)", f)
		}
		cf := C.CString(f)
		rc := C.vmaf_use_feature(v, cf, nil)
		C.free(unsafe.Pointer(cf))
		if rc != 0 {
			s.close()
			return nil, fmt.Errorf("vmaf: libvmaf rejected feature %s (%d)", f, int(rc))
		}
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
		var rc C.int
		if lm.collection != nil {
			rc = C.vmaf_use_features_from_model_collection(s.v, lm.collection)
		} else {
			rc = C.vmaf_use_features_from_model(s.v, lm.m)
		}
		if rc != 0 {
			return fmt.Errorf("vmaf: libvmaf cannot compute the features of model %s (%d)", m.Name, int(rc))
		}
		for _, f := range m.FeatureNames() {
			if !slices.Contains(e.names, f) {
				e.names = append(e.names, f)
			}
		}
	}
	for _, f := range s.cfg.Features {
		for _, k := range unitOutputs(unitKey{kind: extraFeatures[f], gainLimit: defaultGainLimit}) {
			e.names = append(e.names, k)
		}
	}
	s.epochs = append(s.epochs, e)
	return nil
}

func loadLibvmafModel(m *Model) (libvmafModel, error) {
	var version, path *C.char
	if slices.Contains(BuiltinModelVersions(), m.Version) {
		version = C.CString(m.Version)
		defer C.free(unsafe.Pointer(version))
	} else if _, err := os.Stat(m.Version); err == nil {
		path = C.CString(m.Version)
		defer C.free(unsafe.Pointer(path))
	} else {
		return libvmafModel{}, fmt.Errorf("vmaf: model %s is neither a built-in version nor a file libvmaf can load", m.Name)
	}
	lm := libvmafModel{name: C.CString(m.Name)}
	var rc C.int
	if m.IsCollection() {
		lm.m = C.load_collection(version, path, lm.name, &lm.collection, &rc)
	} else {
		lm.m = C.load_model(version, path, lm.name, &rc)
	}
	if rc != 0 {
		C.free(unsafe.Pointer(lm.name))
		return libvmafModel{}, fmt.Errorf("vmaf: libvmaf could not load model %s (%d)", m.Version, int(rc))
	}
	return lm, nil
}

func (s *libvmafScorer) submit(ref, dist *Picture, release func()) error {
	if s.ended {
		return errEnded
	}
	if err := ref.Validate(); err != nil {
		return fmt.Errorf("reference frame %d: %w", s.next, err)
	}
	if err := dist.Validate(); err != nil {
		return fmt.Errorf("distorted frame %d: %w", s.next, err)
	}
	if err := sameFormat(ref, dist); err != nil {
		return fmt.Errorf("frame %d: %w", s.next, err)
	}
	if s.format == nil {
		f := *ref
		f.Planes = [3][]byte{}
		s.format = &f
	} else if !s.format.sameGeometry(ref) {
		return fmt.Errorf("vmaf: frame %d is %s but the stream is %s; start a new Context for a new format", s.next, ref.describe(), s.format.describe())
	}
	// libvmaf keeps pictures past the call, so it gets its own copies and
	// the caller's memory is released at once.
	var cref, cdist C.VmafPicture
	if err := s.copyPicture(ref, &cref); err != nil {
		return err
	}
	if err := s.copyPicture(dist, &cdist); err != nil {
		C.vmaf_picture_unref(&cref)
		return err
	}
	if release != nil {
		release()
	}
	if rc := C.read_pair(s.v, &cref, &cdist, C.uint(s.next)); rc != 0 {
		return fmt.Errorf("vmaf: libvmaf rejected frame %d (%d)", s.next, int(rc))
	}
	s.next++
	return nil
}

func (s *libvmafScorer) copyPicture(p *Picture, c *C.VmafPicture) error {
	fmts := map[Chroma]C.enum_VmafPixelFormat{
		Chroma420: C.VMAF_PIX_FMT_YUV420P, Chroma422: C.VMAF_PIX_FMT_YUV422P,
		Chroma444: C.VMAF_PIX_FMT_YUV444P, Chroma400: C.VMAF_PIX_FMT_YUV400P,
	}
	if rc := C.vmaf_picture_alloc(c, fmts[p.Chroma], C.uint(p.BitDepth), C.uint(p.Width), C.uint(p.Height)); rc != 0 {
		return fmt.Errorf("vmaf: libvmaf could not allocate a %s picture (%d)", p.describe(), int(rc))
	}
	for i := 0; i < p.numPlanes(); i++ {
		w, _ := p.PlaneSize(i)
		C.copy_plane(c, C.int(i), unsafe.Pointer(unsafe.SliceData(p.Planes[i])), C.ptrdiff_t(p.Strides[i]), C.size_t(w*p.bytesPerSample()))
	}
	return nil
}

func (s *libvmafScorer) flush() error {
	if s.ended {
		return errEnded
	}
	defer s.close()
	if s.next == 0 {
		return nil
	}
	if rc := C.flush_context(s.v); rc != 0 {
		return fmt.Errorf("vmaf: libvmaf flush failed (%d)", int(rc))
	}
	var r Result
	sub := max(s.cfg.Subsample, 1)
	for i := 0; i < s.next; i += sub {
		e := s.epochAt(i)
		r.Index, r.Models, r.Metrics = i, e.models, r.Metrics[:0]
		for k, lm := range e.loaded {
			var score C.double
			if rc := C.vmaf_score_at_index(s.v, lm.m, &score, C.uint(i)); rc != 0 {
				return fmt.Errorf("vmaf: libvmaf has no %s score for frame %d (%d)", e.models[k].Name, i, int(rc))
			}
			if lm.collection != nil {
				var cs C.VmafModelCollectionScore
				if rc := C.vmaf_score_at_index_model_collection(s.v, lm.collection, &cs, C.uint(i)); rc != 0 {
					return fmt.Errorf("vmaf: libvmaf has no %s bootstrap scores for frame %d (%d)", e.models[k].Name, i, int(rc))
				}
			}
		}
		for _, name := range e.names {
			s.appendFeature(&r, name, name, i)
		}
		s.appendFeature(&r, "integer_motion", "VMAF_integer_feature_motion_sad_score", i)
		for _, m := range e.models {
			for _, name := range m.metricNames() {
				s.appendFeature(&r, name, name, i)
			}
		}
		if s.cfg.OnResult != nil {
			s.cfg.OnResult(&r)
		}
	}
	return nil
}

// appendFeature adds libvmaf's value of key, under name, when it has one.
// libvmaf files some features under their long internal names
// (VMAF_integer_feature_adm2_score for integer_adm2) and prints the short
// alias, so both are tried.
func (s *libvmafScorer) appendFeature(r *Result, name, key string, index int) {
	keys := []string{key}
	if rest, ok := strings.CutPrefix(key, "integer_"); ok {
		keys = append(keys, "VMAF_integer_feature_"+rest+"_score")
	}
	for _, k := range keys {
		ck := C.CString(k)
		var v C.double
		rc := C.vmaf_feature_score_at_index(s.v, ck, &v, C.uint(index))
		C.free(unsafe.Pointer(ck))
		if rc == 0 {
			r.Metrics = append(r.Metrics, Metric{name, float64(v)})
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
			if lm.collection != nil {
				C.vmaf_model_collection_destroy(lm.collection)
			} else {
				C.vmaf_model_destroy(lm.m)
			}
			C.free(unsafe.Pointer(lm.name))
		}
	}
	C.vmaf_close(s.v)
}

func (s *libvmafScorer) metricNames() []string {
	e := s.epochs[len(s.epochs)-1]
	names := append([]string(nil), e.names...)
	for _, m := range e.models {
		names = append(names, m.metricNames()...)
	}
	return names
}
