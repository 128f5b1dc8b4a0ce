package main

// repeatable are the options that may be given more than once, each
// adding to the others; any other option given again with another value
// is refused, as the later would silently replace the earlier.
var repeatable = map[string]bool{
	"model": true, "feature": true, "model-dir": true, "distorted": true,
}

// apply sets option o to v, refusing a second, different value of an
// option that takes one.
func (s *settings) apply(o *option, v string) error {
	if o.value != "" && !repeatable[o.long] {
		if s.valueOf == nil {
			s.valueOf = map[string]string{}
		}
		if prev, ok := s.valueOf[o.long]; ok && prev != v {
			return usagef("%s given twice (%q, then %q): the second would replace the first; give it once", optionName(o), prev, v)
		}
		s.valueOf[o.long] = v
	}
	return o.set(s, v)
}

func optionName(o *option) string {
	if o.short != 0 {
		return "-" + string(o.short) + "/--" + o.long
	}
	return "--" + o.long
}
