//go:build libvmaf

package gsttest

var buildTags = []string{"libvmaf"}
