// Package kit holds the few helpers several extractors share: libvmaf's
// output renaming and option checks, glibc's log10, the pointer the
// vector kernels take, and the conversion of samples to float32 centred
// on 0 (Centre8, Centre16) that float motion and SpEED read pictures with.
package kit

import (
	"fmt"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// Suffixed names outputs as libvmaf's extractors that rename for their
// parameters do.
func Suffixed(names ...string) func(feature.Format, feature.Settings) []string {
	return func(_ feature.Format, s feature.Settings) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = n + s.Suffix()
		}
		return out
	}
}

// OnlyDefaults refuses settings that change what the named options do,
// for extractors that implement only libvmaf's defaults of them.
func OnlyDefaults(s feature.Settings, names ...string) error {
	d := s.Kind().Defaults()
	for _, n := range names {
		o := optionOf(s.Kind(), n)
		differs := s.Float(n) != d.Float(n)
		if o.Type == feature.String {
			differs = s.String(n) != d.String(n)
		}
		if differs {
			return fmt.Errorf("feature %s: option %s is not supported by the native engine (only its default)", s.Kind().Name, n)
		}
	}
	return nil
}

func optionOf(k *feature.Kind, name string) feature.Option {
	for _, o := range k.Options {
		if o.Name == name {
			return o
		}
	}
	panic("feature " + k.Name + ": no option " + name)
}

// At is the address of s[0] once s is known to hold n elements, for the
// assembly kernels, which take pointers and counts.
func At[T any](s []T, n int) *T {
	return &s[:n][0]
}
