package attach

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/vmaf"
)

// requests reads the run's extra-metric requests, each NAME or
// NAME=option=value:option=value as libvmaf's --feature takes them. The
// engine checked them when the run started.
func requests(list []string) []control.FeatureRequest {
	var out []control.FeatureRequest
	for _, r := range list {
		name, opts, _ := strings.Cut(strings.TrimSpace(r), "=")
		fr := control.FeatureRequest{Request: r, Extractor: reporterName(name)}
		for _, kv := range strings.Split(opts, ":") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				if fr.Options == nil {
					fr.Options = map[string]string{}
				}
				fr.Options[k] = v
			}
		}
		out = append(out, fr)
	}
	return out
}

// reporterName is the name vmaf_features gives the extractor a request
// names: the one its outputs are reported under (a request for vif is
// integer_vif, as libvmaf's extractor sources are named).
func reporterName(request string) string {
	for _, e := range vmaf.Extractors() {
		if e.Name != request || len(e.Outputs) == 0 {
			continue
		}
		if src, ok := vmaf.FeatureExtractor(e.Outputs[0]); ok {
			return src.Extractor
		}
	}
	return request
}

// withRequests marks each extractor instance with the request that asks
// for it and adds the request's numeric and boolean options. A request
// matches the instance of its extractor whose name suffix holds exactly
// the renaming options (see vmaf.OptionInfo.Renames) it sets away from
// their defaults. Requests that match no instance yet, before the first
// frame, are listed on their own.
func withRequests(exs []control.Extractor, reqs []control.FeatureRequest) []control.Extractor {
	for _, r := range reqs {
		opts := numericOptions(r.Options)
		name, _, _ := strings.Cut(r.Request, "=")
		renamed := renamingOptions(strings.TrimSpace(name), opts)
		i := slices.IndexFunc(exs, func(e control.Extractor) bool {
			return e.Name == r.Extractor && e.Request == "" && maps.Equal(renamed, e.Options)
		})
		if i < 0 {
			exs = append(exs, control.Extractor{Name: r.Extractor})
			i = len(exs) - 1
		}
		exs[i].Request = r.Request
		if len(opts) > 0 {
			if exs[i].Options == nil {
				exs[i].Options = map[string]float64{}
			}
			maps.Copy(exs[i].Options, opts)
		}
	}
	return exs
}

// renamingOptions are the options among opts that the extractor writes
// into its output names, as it does when they are not at their default;
// nil when there are none, as for a name without a suffix.
func renamingOptions(extractor string, opts map[string]float64) map[string]float64 {
	var out map[string]float64
	for _, e := range vmaf.Extractors() {
		if e.Name != extractor {
			continue
		}
		for _, o := range e.Options {
			v, ok := opts[o.Name]
			if def, _ := numericValue(o.Default); !ok || !o.Renames || v == def {
				continue
			}
			if out == nil {
				out = map[string]float64{}
			}
			out[o.Name] = v
		}
	}
	return out
}

// numericOptions are the options given as numbers or booleans (1, 0).
func numericOptions(opts map[string]string) map[string]float64 {
	out := map[string]float64{}
	for k, v := range opts {
		if x, ok := numericValue(v); ok {
			out[k] = x
		}
	}
	return out
}

// numericValue reads a boolean (1, 0) or a finite number: JSON has no NaN
// or infinity (the engine refuses them anyway).
func numericValue(v string) (float64, bool) {
	switch v {
	case "true":
		return 1, true
	case "false":
		return 0, true
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, false
	}
	return x, true
}
