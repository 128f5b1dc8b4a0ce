//go:build libvmaf

// Package clibvmaf is a thin cgo binding of the libvmaf C API, kept apart
// from package vmaf because a package using cgo cannot also hold the Go
// assembly kernels.
package clibvmaf

/*
#cgo pkg-config: libvmaf
#include <stdlib.h>
#include <string.h>
#include <libvmaf/libvmaf.h>

// libvmaf's entry points take handles as out-parameters; these keep the Go
// side free of pointer-to-pointer juggling.
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

static void copy_plane(VmafPicture *p, int i, const void *src, ptrdiff_t stride, size_t row) {
	for (unsigned y = 0; y < p->h[i]; y++)
		memcpy((char *)p->data[i] + y * p->stride[i], (const char *)src + y * stride, row);
}

static int flush_context(VmafContext *v) { return vmaf_read_pictures(v, NULL, NULL, 0); }
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Context is a libvmaf context.
type Context struct{ v *C.VmafContext }

// Model is a loaded libvmaf model or bootstrap collection.
type Model struct {
	m          *C.VmafModel
	collection *C.VmafModelCollection
	name       *C.char
}

// Pixel formats, as libvmaf numbers them.
const (
	YUV420 = int(C.VMAF_PIX_FMT_YUV420P)
	YUV422 = int(C.VMAF_PIX_FMT_YUV422P)
	YUV444 = int(C.VMAF_PIX_FMT_YUV444P)
	YUV400 = int(C.VMAF_PIX_FMT_YUV400P)
)

// New starts a libvmaf context.
func New(threads, subsample int) (*Context, error) {
	var rc C.int
	v := C.new_context(C.uint(threads), C.uint(subsample), &rc)
	if rc != 0 {
		return nil, fmt.Errorf("libvmaf init failed (%d)", int(rc))
	}
	return &Context{v: v}, nil
}

// UseFeature registers an extra feature extractor such as "psnr".
func (c *Context) UseFeature(name string, opts [][2]string) error {
	cn := C.CString(name)
	defer C.free(unsafe.Pointer(cn))
	var d *C.VmafFeatureDictionary
	for _, o := range opts {
		ck, cv := C.CString(o[0]), C.CString(o[1])
		rc := C.vmaf_feature_dictionary_set(&d, ck, cv)
		C.free(unsafe.Pointer(ck))
		C.free(unsafe.Pointer(cv))
		if rc != 0 {
			if d != nil {
				C.vmaf_feature_dictionary_free(&d)
			}
			return fmt.Errorf("libvmaf rejected option %s=%s of feature %s (%d)", o[0], o[1], name, int(rc))
		}
	}
	// vmaf_use_feature takes the dictionary over, whatever it returns.
	if rc := C.vmaf_use_feature(c.v, cn, d); rc != 0 {
		return fmt.Errorf("libvmaf rejected feature %s (%d)", name, int(rc))
	}
	return nil
}

// LoadModel loads a built-in version (path empty) or a model file, named
// name in the scores.
func LoadModel(version, path, name string, collection bool) (*Model, error) {
	var cv, cp *C.char
	if path != "" {
		cp = C.CString(path)
		defer C.free(unsafe.Pointer(cp))
	} else {
		cv = C.CString(version)
		defer C.free(unsafe.Pointer(cv))
	}
	m := &Model{name: C.CString(name)}
	var rc C.int
	if collection {
		m.m = C.load_collection(cv, cp, m.name, &m.collection, &rc)
	} else {
		m.m = C.load_model(cv, cp, m.name, &rc)
	}
	if rc != 0 {
		C.free(unsafe.Pointer(m.name))
		return nil, fmt.Errorf("libvmaf could not load model %s%s (%d)", version, path, int(rc))
	}
	return m, nil
}

// Close frees the model.
func (m *Model) Close() {
	if m.collection != nil {
		C.vmaf_model_collection_destroy(m.collection)
	} else {
		C.vmaf_model_destroy(m.m)
	}
	C.free(unsafe.Pointer(m.name))
}

// UseModel registers the features a model needs.
func (c *Context) UseModel(m *Model) error {
	var rc C.int
	if m.collection != nil {
		rc = C.vmaf_use_features_from_model_collection(c.v, m.collection)
	} else {
		rc = C.vmaf_use_features_from_model(c.v, m.m)
	}
	if rc != 0 {
		return fmt.Errorf("libvmaf cannot compute the model's features (%d)", int(rc))
	}
	return nil
}

// Picture describes caller memory to copy into a libvmaf picture.
type Picture struct {
	Format, BitDepth, Width, Height int
	Planes                          int
	Data                            [3][]byte
	Strides                         [3]int
	RowBytes                        [3]int
}

// Read copies one pair into libvmaf's own pictures (libvmaf keeps them
// past the call) and queues it as frame index.
func (c *Context) Read(ref, dist *Picture, index int) error {
	var cref, cdist C.VmafPicture
	if err := alloc(ref, &cref); err != nil {
		return err
	}
	if err := alloc(dist, &cdist); err != nil {
		C.vmaf_picture_unref(&cref)
		return err
	}
	if rc := C.vmaf_read_pictures(c.v, &cref, &cdist, C.uint(index)); rc != 0 {
		return fmt.Errorf("libvmaf rejected frame %d (%d)", index, int(rc))
	}
	return nil
}

func alloc(p *Picture, c *C.VmafPicture) error {
	if rc := C.vmaf_picture_alloc(c, C.enum_VmafPixelFormat(p.Format), C.uint(p.BitDepth), C.uint(p.Width), C.uint(p.Height)); rc != 0 {
		return fmt.Errorf("libvmaf could not allocate a %dx%d picture (%d)", p.Width, p.Height, int(rc))
	}
	for i := 0; i < p.Planes; i++ {
		C.copy_plane(c, C.int(i), unsafe.Pointer(unsafe.SliceData(p.Data[i])), C.ptrdiff_t(p.Strides[i]), C.size_t(p.RowBytes[i]))
	}
	return nil
}

// Flush ends the stream; scores are available afterwards.
func (c *Context) Flush() error {
	if rc := C.flush_context(c.v); rc != 0 {
		return fmt.Errorf("libvmaf flush failed (%d)", int(rc))
	}
	return nil
}

// Score computes a model's score at index (and, for a collection, its
// bootstrap outputs), which libvmaf then reports as features.
func (c *Context) Score(m *Model, index int) error {
	var s C.double
	if rc := C.vmaf_score_at_index(c.v, m.m, &s, C.uint(index)); rc != 0 {
		return fmt.Errorf("libvmaf has no score for frame %d (%d)", index, int(rc))
	}
	if m.collection != nil {
		var cs C.VmafModelCollectionScore
		if rc := C.vmaf_score_at_index_model_collection(c.v, m.collection, &cs, C.uint(index)); rc != 0 {
			return fmt.Errorf("libvmaf has no bootstrap scores for frame %d (%d)", index, int(rc))
		}
	}
	return nil
}

// Feature returns the value libvmaf holds for a feature or score name.
func (c *Context) Feature(name string, index int) (float64, bool) {
	cn := C.CString(name)
	defer C.free(unsafe.Pointer(cn))
	var v C.double
	if C.vmaf_feature_score_at_index(c.v, cn, &v, C.uint(index)) != 0 {
		return 0, false
	}
	return float64(v), true
}

// Close frees the context.
func (c *Context) Close() { C.vmaf_close(c.v) }
