package main

import (
	"context"
	"io"
)

func runBatch(ctx context.Context, args []string, stdout, stderr io.Writer) int { return exitUsage }
