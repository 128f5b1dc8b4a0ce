package feature

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf/internal/modelfile"
)

// OptionType is the type of an option's value.
type OptionType int

const (
	Bool OptionType = iota
	Int
	Double
	String
)

// Option is one of an extractor's options, as libvmaf declares it.
type Option struct {
	Name string
	// Alias is the short name a parameter's value is reported under.
	Alias string
	Type  OptionType
	// Default is the value when unset: 0 or 1 for Bool; DefaultString
	// for String.
	Default       float64
	DefaultString string
	Min, Max      float64 // range of Int and Double values
	// Param marks an option that changes the extractor's values: libvmaf
	// names values computed with a non-default parameter by appending
	// "_alias" (Bool) or "_alias_value" to the output's name.
	Param bool
}

// Settings are an extractor's option values. The zero Settings has none;
// get one from Kind.Defaults or Kind.Parse.
type Settings struct {
	kind *Kind
	nums []float64
	strs []string
}

// Defaults are the kind's settings with every option at its default.
func (k *Kind) Defaults() Settings {
	s := Settings{kind: k, nums: make([]float64, len(k.Options)), strs: make([]string, len(k.Options))}
	for i, o := range k.Options {
		s.nums[i], s.strs[i] = o.Default, o.DefaultString
	}
	return s
}

// Parse reads libvmaf's option list "opt=val:opt=val" (empty for none)
// over the defaults. An unknown option, a value of the wrong type or out
// of range is an error naming the extractor and the option.
func (k *Kind) Parse(list string) (Settings, error) {
	s := k.Defaults()
	if list == "" {
		return s, nil
	}
	for _, kv := range strings.Split(list, ":") {
		name, val, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return Settings{}, fmt.Errorf("feature %s: option %q: want name=value", k.Name, kv)
		}
		var err error
		if s, err = s.With(name, val); err != nil {
			return Settings{}, err
		}
	}
	return s, nil
}

// With is s with option name set from its text form, or an error naming
// the extractor, the option and what is wrong with the value.
func (s Settings) With(name, val string) (Settings, error) {
	k := s.kind
	i := slices.IndexFunc(k.Options, func(o Option) bool { return o.Name == name })
	if i < 0 {
		return Settings{}, fmt.Errorf("feature %s: unknown option %q (have %s)", k.Name, name, k.optionNames())
	}
	o := k.Options[i]
	v, str, err := o.parse(val)
	if err != nil {
		return Settings{}, fmt.Errorf("feature %s: option %s=%q: %w", k.Name, name, val, err)
	}
	out := Settings{kind: k, nums: slices.Clone(s.nums), strs: slices.Clone(s.strs)}
	out.nums[i], out.strs[i] = v, str
	return out, nil
}

func (o Option) parse(val string) (float64, string, error) {
	switch o.Type {
	case Bool:
		switch val {
		case "true":
			return 1, "", nil
		case "false":
			return 0, "", nil
		}
		return 0, "", fmt.Errorf("want true or false")
	case String:
		return 0, val, nil
	}
	var v float64
	if o.Type == Int {
		n, err := strconv.Atoi(val)
		if err != nil {
			return 0, "", fmt.Errorf("want an integer")
		}
		v = float64(n)
	} else {
		f, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(f) {
			return 0, "", fmt.Errorf("want a number")
		}
		v = f
	}
	if v < o.Min || v > o.Max {
		return 0, "", fmt.Errorf("outside %s..%s", fmtNum(o.Min), fmtNum(o.Max))
	}
	return v, "", nil
}

func (k *Kind) optionNames() string {
	if len(k.Options) == 0 {
		return "no options"
	}
	names := make([]string, len(k.Options))
	for i, o := range k.Options {
		names[i] = o.Name
	}
	return strings.Join(names, ", ")
}

func (s Settings) index(name string) int {
	if s.kind != nil {
		for i, o := range s.kind.Options {
			if o.Name == name {
				return i
			}
		}
	}
	panic("feature: no option " + name) // a programming error in an extractor
}

// Float is option name's value; Int, Bool and String likewise. Asking
// for an option the kind lacks is a programming error and panics.
func (s Settings) Float(name string) float64 { return s.nums[s.index(name)] }
func (s Settings) Int(name string) int       { return int(s.nums[s.index(name)]) }
func (s Settings) Bool(name string) bool     { return s.nums[s.index(name)] != 0 }
func (s Settings) String(name string) string { return s.strs[s.index(name)] }

// Suffix is what libvmaf appends to an output's name for these settings:
// for each parameter not at its default, in order of option name,
// "_alias" for a Bool, "_alias_value" otherwise (doubles as C's %g).
func (s Settings) Suffix() string {
	if s.kind == nil {
		return ""
	}
	order := make([]int, len(s.kind.Options))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(s.kind.Options[a].Name, s.kind.Options[b].Name) })
	var b strings.Builder
	for _, i := range order {
		o := s.kind.Options[i]
		if !o.Param || s.nums[i] == o.Default && s.strs[i] == o.DefaultString {
			continue
		}
		b.WriteString("_" + o.Alias)
		switch o.Type {
		case Bool:
		case Int:
			b.WriteString("_" + strconv.Itoa(int(s.nums[i])))
		case String:
			b.WriteString("_" + s.strs[i])
		default:
			b.WriteString("_" + modelfile.FormatG(s.nums[i]))
		}
	}
	return b.String()
}

// Key identifies the settings among those of one kind: equal keys, equal
// values.
func (s Settings) Key() string {
	var b strings.Builder
	for i := range s.nums {
		fmt.Fprintf(&b, "%v|%s;", s.nums[i], s.strs[i])
	}
	return b.String()
}

// Kind is the extractor the settings belong to.
func (s Settings) Kind() *Kind { return s.kind }

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
