package speed

import (
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
	"github.com/vmafsink/vmafsink/vmaf/internal/feature/featuretest"
)

func TestGolden(t *testing.T) {
	for _, kind := range []*feature.Kind{ChromaKind, TemporalKind} {
		for _, name := range featuretest.Pairs(t) {
			t.Run(kind.Name+"/"+name, func(t *testing.T) {
				p := featuretest.Load(t, name)
				names, values := featuretest.Run(t, p, kind.Defaults())
				featuretest.Compare(t, p, names, values, featuretest.Tolerance{Rel: 1e-4})
			})
		}
	}
}
