package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// asToolEnv makes the test binary run as vmaf-score, so that batch, which
// runs each pair as a process of its own program, runs them with the code
// under test.
const asToolEnv = "VMAF_SCORE_TEST_AS_TOOL"

func runAsToolIfAsked() {
	if os.Getenv(asToolEnv) == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
}

// TestBatch runs a list with a pair that fails among good ones, reruns it
// (the done pairs are skipped, the failed one is tried again), and runs
// the list's two shards; outputs are the single runs' documents.
func TestBatch(t *testing.T) {
	t.Setenv(asToolEnv, "1")
	ref, dist := goldenY4M(t, smallRef), goldenY4M(t, smallDist)
	dir := t.TempDir()
	lines := []string{
		"reference,distorted,options,output",
		fmt.Sprintf("%s,%s,,out/a.xml", ref, dist),
		fmt.Sprintf("%s,%s,\"--feature psnr --threads 2\",out/b.json", ref, dist),
		fmt.Sprintf("%s,%s,,out/missing.json", ref, filepath.Join(dir, "no-such.y4m")),
		fmt.Sprintf("%s,%s,--frame_cnt 4 --csv,out/c.txt", ref, ref),
	}
	list := filepath.Join(dir, "jobs.csv")
	if err := os.WriteFile(list, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := vmafScore(t, "batch", "--jobs", "2", list)
	if r.code != exitError || !strings.Contains(r.stderr, "FAIL "+filepath.Join(dir, "out/missing.json")) ||
		!strings.Contains(r.stderr, "4 pairs: 3 scored, 0 already done, 1 failed") {
		t.Fatalf("first run: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	for _, c := range []struct {
		out  string
		args []string
	}{
		{"out/a.xml", []string{"-r", ref, "-d", dist}},
		{"out/b.json", []string{"-r", ref, "-d", dist, "--feature", "psnr", "--threads", "2", "--json"}},
		{"out/c.txt", []string{"-r", ref, "-d", ref, "--frame_cnt", "4", "--csv"}},
	} {
		want := filepath.Join(dir, "want-"+filepath.Base(c.out))
		mustScore(t, append(c.args, "-q", "-o", want)...)
		sameDocument(t, want, filepath.Join(dir, c.out))
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "out", ".*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	r = vmafScore(t, "batch", list)
	if r.code != exitError || !strings.Contains(r.stderr, "4 pairs: 0 scored, 3 already done, 1 failed") {
		t.Fatalf("rerun: exit %d\nstderr: %s", r.code, r.stderr)
	}

	// The JSON lines form, split in two shards: each takes every other
	// pair, and together they score them all once.
	var jl []string
	for i := range 3 {
		jl = append(jl, fmt.Sprintf(`{"reference": %q, "distorted": %q, "options": ["--frame_cnt", "%d"], "output": "s/%d.json"}`, ref, dist, i+2, i))
	}
	jlist := filepath.Join(dir, "jobs.jsonl")
	if err := os.WriteFile(jlist, []byte(strings.Join(jl, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r0 := vmafScore(t, "batch", "--shard", "0/2", jlist)
	r1 := vmafScore(t, "batch", "--shard=1/2", jlist)
	if r0.code != 0 || r1.code != 0 || !strings.Contains(r0.stderr, "2 pairs: 2 scored") || !strings.Contains(r1.stderr, "1 pairs: 1 scored") {
		t.Fatalf("shards: exit %d, %d\n%s\n%s", r0.code, r1.code, r0.stderr, r1.stderr)
	}
	for i := range 3 {
		if n := len(readLog(t, filepath.Join(dir, fmt.Sprintf("s/%d.json", i))).Frames); n != i+2 {
			t.Errorf("s/%d.json has %d frames, want %d", i, n, i+2)
		}
	}
}

func TestBatchListErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ name, content, want string }{
		{"noheader.csv", "a.y4m,b.y4m,,o.xml\n", "no \"reference\" column"},
		{"dup.csv", "reference,distorted,options,output\na,b,,o.xml\nc,d,,o.xml\n", "write the same output"},
		{"quote.csv", "reference,distorted,options,output\na,b,\"--feature 'psnr\",o.xml\n", "unterminated quote"},
		{"unknown.jsonl", `{"reference": "a", "distorted": "b", "outptu": "o"}` + "\n", "unknown field"},
		{"empty.jsonl", `{"reference": "a", "distorted": "b"}` + "\n", "needs a reference, a distorted input and an output"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		r := vmafScore(t, "batch", p)
		if r.code != exitError || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: exit %d, %q; want %q", c.name, r.code, r.stderr, c.want)
		}
	}
	if r := vmafScore(t, "batch", "--jobs", "0", "x.csv"); r.code != exitUsage {
		t.Errorf("--jobs 0: exit %d", r.code)
	}
}

func TestSplitWords(t *testing.T) {
	for in, want := range map[string][]string{
		``:                           nil,
		`--feature psnr`:             {"--feature", "psnr"},
		`  -m 'version=a:name=b c' `: {"-m", "version=a:name=b c"},
		`--x "a\"b" c\ d ''`:         {"--x", `a"b`, "c d", ""},
	} {
		got, err := splitWords(in)
		if err != nil || strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
