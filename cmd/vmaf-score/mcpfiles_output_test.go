package main

import (
	"strings"
	"testing"
)

// Two calls naming one output file cannot write it at once; once the
// first is done, the name is free again.
func TestResultFileClaimsNamedOutput(t *testing.T) {
	s := &filesServer{outDir: t.TempDir(), writing: map[string]bool{}}
	_, keep, done, err := s.resultFile("run.json")
	if err != nil || !keep {
		t.Fatalf("first claim: keep %v, %v", keep, err)
	}
	if _, _, _, err := s.resultFile("run.json"); err == nil || !strings.Contains(err.Error(), "being written by another call") {
		t.Fatalf("second claim while the first runs: %v", err)
	}
	if _, _, other, err := s.resultFile("other.json"); err != nil {
		t.Fatalf("another name: %v", err)
	} else {
		other()
	}
	done()
	if _, _, again, err := s.resultFile("run.json"); err != nil {
		t.Fatalf("claim after the first is done: %v", err)
	} else {
		again()
	}
}
