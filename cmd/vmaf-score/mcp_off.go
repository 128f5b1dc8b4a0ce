//go:build !wip_mcp

package main

import "errors"

// newRunnerSink is the --mcp-uds path; this build has no control plane.
func (j *job) newRunnerSink() (sink, error) {
	return nil, errors.New("--mcp-uds is not available in this build")
}
