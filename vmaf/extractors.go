package vmaf

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// extractorKinds are the extractors the native engine has, by libvmaf's
// extractor name (what --feature names). Read-only.
var extractorKinds = func() map[string]*feature.Kind {
	m := map[string]*feature.Kind{}
	for _, k := range []*feature.Kind{vifKind, admKind, motionKind, psnrKind, ssimKind, msssimKind} {
		m[k.Name] = k
	}
	return m
}()

// ExtractorNames lists the extractors the native engine has, sorted.
func ExtractorNames() []string {
	names := make([]string, 0, len(extractorKinds))
	for n := range extractorKinds {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// parseFeature reads one feature request in libvmaf's --feature grammar,
// NAME or NAME=opt=val:opt=val.
func parseFeature(spec string) (feature.Settings, error) {
	name, opts, _ := strings.Cut(strings.TrimSpace(spec), "=")
	k, ok := extractorKinds[name]
	if !ok {
		return feature.Settings{}, fmt.Errorf("vmaf: unknown feature %q (have %s)", name, strings.Join(ExtractorNames(), ", "))
	}
	s, err := k.Parse(opts)
	if err == nil {
		err = checkSettings(s)
	}
	if err != nil {
		return feature.Settings{}, fmt.Errorf("vmaf: %w", err)
	}
	return s, nil
}

// CheckFeature says whether the native engine can compute a feature
// request, NAME or NAME=opt=val:opt=val as libvmaf's --feature takes it,
// without a stream: unknown names and options, ill-typed or out-of-range
// values are errors.
func CheckFeature(spec string) error {
	_, err := parseFeature(spec)
	return err
}

// frameOf views a picture as extractors read it.
func frameOf(p *Picture) feature.Frame {
	f := feature.Frame{Format: formatOf(p)}
	for i := 0; i < p.numPlanes(); i++ {
		w, h := p.PlaneSize(i)
		f.Planes[i] = feature.Plane{Data: p.Planes[i], Stride: p.Strides[i], W: w, H: h, BitDepth: p.BitDepth}
	}
	return f
}

func formatOf(p *Picture) feature.Format {
	return feature.Format{Width: p.Width, Height: p.Height, BitDepth: p.BitDepth, Chroma: feature.Chroma(p.Chroma)}
}

// checkSettings refuses what the kind's instances would refuse whatever
// the stream.
func checkSettings(s feature.Settings) error {
	if c := s.Kind().Check; c != nil {
		return c(s)
	}
	return nil
}
