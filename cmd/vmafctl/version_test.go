package main

import (
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/internal/version"
)

func TestVersion(t *testing.T) {
	for _, arg := range []string{"-version", "--version"} {
		code, out, e := vmafctl(t, arg)
		if code != exitOK || out != "vmafctl "+version.String()+"\n" || e != "" {
			t.Errorf("%s: exit %d, %q %q", arg, code, out, e)
		}
	}
	if _, _, e := vmafctl(t, "-h"); !strings.Contains(e, "vmafctl -version") {
		t.Errorf("usage lacks -version: %q", e)
	}
}
