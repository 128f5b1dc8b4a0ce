package main

import (
	"fmt"
	"sort"
	"strings"
)

// An MCP client's filter graph runs with the server's rights, so
// vmaf_score_files takes only a plain chain (no quotes, escapes, labels
// or second chains, so that splitting at commas finds every filter as
// FFmpeg's parser will) of filters that only transform pictures: none
// that opens a file, a library or a socket (movie, amovie, lut3d,
// frei0r, zmq, sendcmd, ...).
var mcpFilters = map[string]bool{
	"bwdif": true, "colorspace": true, "copy": true, "crop": true, "eq": true,
	"fieldorder": true, "format": true, "fps": true, "hflip": true,
	"null": true, "pad": true, "scale": true, "setdar": true, "setfield": true,
	"setparams": true, "setpts": true, "setsar": true, "tonemap": true,
	"transpose": true, "trim": true, "vflip": true, "w3fdif": true, "yadif": true,
	"zscale": true,
}

// mcpFilterChars are the characters such a chain may use: names,
// options, numbers and arithmetic in expressions.
const mcpFilterChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_=:,.+-*/()"

// checkMCPFilter refuses a filter chain an MCP client may not run.
func checkMCPFilter(arg, chain string) error {
	if i := strings.IndexFunc(chain, func(r rune) bool { return !strings.ContainsRune(mcpFilterChars, r) }); i >= 0 {
		return fmt.Errorf("%s: %q: character %q is not allowed here (a chain of filters NAME=OPT=VAL:..., separated by commas, without quotes, escapes, spaces or labels)", arg, chain, chain[i])
	}
	for _, f := range strings.Split(chain, ",") {
		name, _, _ := strings.Cut(f, "=")
		if !mcpFilters[name] {
			return fmt.Errorf("%s: filter %q is not allowed here; allowed: %s", arg, name, strings.Join(allowedMCPFilters(), ", "))
		}
	}
	return nil
}

func allowedMCPFilters() []string {
	var names []string
	for n, ok := range mcpFilters {
		if ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}
