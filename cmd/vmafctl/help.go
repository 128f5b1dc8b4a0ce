package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
)

// wantsHelp reports whether a command's arguments ask for its help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		case "--":
			return false
		}
	}
	return false
}

// helpFor prints a command's help to stdout: its lines of the usage text
// and its flags. "vmafctl help CMD" and "vmafctl CMD -h" both give it,
// without a socket, and exit 0.
func helpFor(ctx context.Context, name string, stdout, stderr io.Writer) int {
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "vmafctl: unknown command %q\n\n%s", name, usage)
		return exitUsage
	}
	fmt.Fprint(stdout, "usage: vmafctl [-s SOCKET] [-json] [-timeout D] "+commandUsage(name))
	// The command's own flag set describes its flags when asked for help;
	// it asks for nothing else then.
	var flagsText bytes.Buffer
	cmd(ctx, globals{socket: "-"}, []string{"-h"}, io.Discard, &flagsText)
	var lines []string
	for _, l := range strings.Split(flagsText.String(), "\n") {
		if strings.HasPrefix(l, "Usage of ") || strings.HasPrefix(l, "vmafctl: ") || l == "" {
			continue
		}
		lines = append(lines, l)
	}
	if len(lines) > 0 {
		fmt.Fprintf(stdout, "\nflags:\n%s\n", strings.Join(lines, "\n"))
	}
	fmt.Fprint(stdout, "\nexit codes: 0 ok, 1 error, 2 usage, 3 cannot connect, 4 refused,\n"+
		"            5 queue full or busy, 6 timed out, 7 stream finished\n")
	return exitOK
}

// commandUsage is a command's entry in the usage text, its continuation
// lines included.
func commandUsage(name string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(usage, "\n") {
		switch {
		case strings.HasPrefix(l, "  "+name+" ") || l == "  "+name:
			in = true
			spec, desc, _ := strings.Cut(strings.TrimPrefix(l, "  "), "  ")
			b.WriteString(strings.TrimSpace(spec) + "\n\n")
			if desc = strings.TrimSpace(desc); desc != "" {
				b.WriteString("  " + desc + "\n")
			}
		case in && strings.HasPrefix(l, "     "):
			b.WriteString("  " + strings.TrimSpace(l) + "\n")
		default:
			in = false
		}
	}
	return b.String()
}
