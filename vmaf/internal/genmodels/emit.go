package main

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// emit writes v as a Go expression that evaluates to a value
// reflect.DeepEqual to v: nil and empty slices stay apart, and fields at
// their zero value are left out. It walks the value by reflection, so a
// field added to modelfile's types is written without touching the
// generator. elided is true where the enclosing composite literal lets
// the type (and a pointer's &) go unwritten.
func emit(b *bytes.Buffer, v reflect.Value, elided bool) error {
	switch v.Kind() {
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Float64:
		x := v.Float()
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%g has no Go literal", x)
		}
		b.WriteString(lit(x))
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		if !elided {
			b.WriteString("&")
		}
		return emit(b, v.Elem(), elided)
	case reflect.Struct:
		return emitStruct(b, v, elided)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		return emitList(b, v, elided)
	default:
		return fmt.Errorf("cannot write a %s", v.Type())
	}
	return nil
}

func emitStruct(b *bytes.Buffer, v reflect.Value, elided bool) error {
	if !elided {
		b.WriteString(v.Type().String())
	}
	b.WriteString("{")
	sep := ", "
	if !scalarsOnly(v.Type()) {
		b.WriteString("\n")
		sep = ",\n"
	}
	first := true
	for i := range v.NumField() {
		f := v.Field(i)
		if f.IsZero() {
			continue
		}
		if !first && sep == ", " {
			b.WriteString(sep)
		}
		first = false
		b.WriteString(v.Type().Field(i).Name + ": ")
		if err := emit(b, f, false); err != nil {
			return fmt.Errorf("%s: %w", v.Type().Field(i).Name, err)
		}
		if sep != ", " {
			b.WriteString(sep)
		}
	}
	b.WriteString("}")
	return nil
}

// emitList writes one element a line when the elements are composite,
// and all on one line when they are scalars, so a support vector is a line.
func emitList(b *bytes.Buffer, v reflect.Value, elided bool) error {
	if !elided {
		b.WriteString(v.Type().String())
	}
	b.WriteString("{")
	inline := scalarsOnly(v.Type().Elem())
	if !inline && v.Len() > 0 {
		b.WriteString("\n")
	}
	for i := range v.Len() {
		if inline && i > 0 {
			b.WriteString(", ")
		}
		if err := emit(b, v.Index(i), true); err != nil {
			return fmt.Errorf("[%d]: %w", i, err)
		}
		if !inline {
			b.WriteString(",\n")
		}
	}
	b.WriteString("}")
	return nil
}

// scalarsOnly reports whether t is a scalar or a struct of scalars, which
// reads best on one line.
func scalarsOnly(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if k := t.Field(i).Type.Kind(); k == reflect.Struct || k == reflect.Slice || k == reflect.Array || k == reflect.Pointer {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Array, reflect.Pointer:
		return false
	}
	return true
}

// lit formats x as a Go literal that reads back as the same float64.
func lit(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
