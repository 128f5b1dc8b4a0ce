package main

import (
	"fmt"
	"strconv"
	"strings"
)

// usageError is a bad command line: exit status 1 with a hint to --help,
// as vmaf-score does.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// option is one command-line option: its names, whether it takes a
// value, and what to do with it.
type option struct {
	names []string // "--target", "-t"
	value bool     // takes an argument
	set   func(val string) error
}

// parseOptions reads args as vmaf-score reads its own: --name value or
// --name=value, no abbreviations; a bare word goes to positional.
func parseOptions(args []string, opts []option, positional func(string) error) error {
	byName := map[string]*option{}
	for i := range opts {
		for _, n := range opts[i].names {
			byName[n] = &opts[i]
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			if positional == nil {
				return usagef("unexpected argument %q", a)
			}
			if err := positional(a); err != nil {
				return err
			}
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		o := byName[name]
		if o == nil {
			return usagef("unknown option %q", a)
		}
		if !o.value {
			if hasVal {
				return usagef("option %s takes no argument", name)
			}
			if err := o.set(""); err != nil {
				return err
			}
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return usagef("option %s needs an argument", name)
			}
			i++
			val = args[i]
		}
		if err := o.set(val); err != nil {
			return err
		}
	}
	return nil
}

func flagOpt(p *bool, names ...string) option {
	return option{names: names, set: func(string) error { *p = true; return nil }}
}

func stringOpt(p *string, names ...string) option {
	return option{names: names, value: true, set: func(v string) error { *p = v; return nil }}
}

func floatOpt(p *float64, names ...string) option {
	return option{names: names, value: true, set: func(v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return usagef("invalid value %q for %s: want a number", v, names[0])
		}
		*p = f
		return nil
	}}
}

func optFloatOpt(p **float64, names ...string) option {
	return option{names: names, value: true, set: func(v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return usagef("invalid value %q for %s: want a number", v, names[0])
		}
		*p = &f
		return nil
	}}
}

func intOpt(p *int, min, max int, names ...string) option {
	return option{names: names, value: true, set: func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < min || n > max {
			return usagef("invalid value %q for %s: want an integer from %d to %d", v, names[0], min, max)
		}
		*p = n
		return nil
	}}
}
