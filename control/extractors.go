package control

import "github.com/vmafsink/vmafsink/vmaf"

// extractorList describes every extractor of this build for
// vmaf_list_extractors: what is there to ask for, not what runs (that is
// vmaf_features). It comes from the engine, not the Target, since it is
// the same for every run of the build.
func extractorList() ExtractorList {
	l := ExtractorList{Extractors: []ExtractorInfo{}}
	for _, e := range vmaf.Extractors() {
		info := ExtractorInfo{Name: e.Name, Outputs: append([]string{}, e.Outputs...)}
		for _, o := range e.Options {
			opt := ExtractorOption{Name: o.Name, Type: o.Type, Default: o.Default, Renames: o.Renames, DefaultOnly: o.DefaultOnly}
			if (o.Type == "int" || o.Type == "double") && finite(o.Min) && finite(o.Max) {
				opt.Min, opt.Max = ptr(o.Min), ptr(o.Max)
			}
			info.Options = append(info.Options, opt)
		}
		l.Extractors = append(l.Extractors, info)
	}
	return l
}
