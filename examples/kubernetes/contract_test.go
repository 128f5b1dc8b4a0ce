package kubernetes

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
)

// vmafScoreDir is a directory holding the vmaf-score the pods' commands
// run: $VMAF_SCORE's (meson test gives the build's), or one built here.
func vmafScoreDir(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("VMAF_SCORE"); p != "" {
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(abs) != "vmaf-score" {
			t.Fatalf("VMAF_SCORE must name a file called vmaf-score, not %s", abs)
		}
		return filepath.Dir(abs)
	}
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-C", "../..", "-o", filepath.Join(dir, "vmaf-score"), "./cmd/vmaf-score")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building vmaf-score: %v\n%s", err, out)
	}
	return dir
}

// golden decompresses a golden clip of the repository to path.
func golden(t *testing.T, name, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join("..", "..", "testdata", "goldens", "clips", name+".xz")
	if out, err := exec.Command("sh", "-c", `xz -dc "$1" > "$2"`, "sh", src, path).CombinedOutput(); err != nil {
		t.Fatalf("xz %s: %v: %s", src, err, out)
	}
}

func ffmpeg(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command("ffmpeg", append([]string{"-hide_banner", "-loglevel", "error", "-y"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg %v: %v: %s", args, err, out)
	}
}

// pod runs the command of Job j's pod with completion index index (-1:
// not an Indexed Job), with the manifest's environment but for DATA,
// the shared volume's mount, which is data here.
func pod(t *testing.T, j *batchv1.Job, index int, bin, data string) string {
	t.Helper()
	c := j.Spec.Template.Spec.Containers[0]
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, e := range c.Env {
		v := e.Value
		if e.Name == "DATA" {
			v = data
		}
		env = append(env, e.Name+"="+v)
	}
	if index >= 0 {
		env = append(env, fmt.Sprintf("JOB_COMPLETION_INDEX=%d", index))
	}
	argv := append(append([]string{}, c.Command...), c.Args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s pod %d: %v\n%s", j.Name, index, err, out.String())
	}
	return out.String()
}

// sameDocument fails unless the files are equal but for the processing
// rate, which is a measurement of each run.
func sameDocument(t *testing.T, want, got string) {
	t.Helper()
	w, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	g, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fpsField.ReplaceAll(w, nil), fpsField.ReplaceAll(g, nil)) {
		t.Fatalf("%s differs from %s", got, want)
	}
}

// TestShardJobThenMerge runs every pod of vmaf-shards, then vmaf-merge's,
// on an H.264 encode of a golden clip: the merged document is the one a
// single run with the Job's options writes.
func TestShardJobThenMerge(t *testing.T) {
	jobs, _ := manifests(t)
	bin := vmafScoreDir(t)
	data := t.TempDir()
	shards, merge := jobs["vmaf-shards"], jobs["vmaf-merge"]
	env := envOf(&shards.Spec.Template.Spec.Containers[0])
	if menv := envOf(&merge.Spec.Template.Spec.Containers[0]); menv["RUN"] != env["RUN"] {
		t.Fatalf("vmaf-merge joins run %q, vmaf-shards writes %q", menv["RUN"], env["RUN"])
	}
	y4m := filepath.Join(t.TempDir(), "ref.y4m")
	golden(t, "flower_576x324_ref.y4m", y4m)
	ref, dist := filepath.Join(data, env["REFERENCE"]), filepath.Join(data, env["DISTORTED"])
	if err := os.MkdirAll(filepath.Dir(ref), 0o755); err != nil {
		t.Fatal(err)
	}
	ffmpeg(t, "-i", y4m, "-c:v", "ffv1", ref)
	ffmpeg(t, "-i", y4m, "-c:v", "libx264", "-crf", "35", "-g", "12", "-preset", "veryfast", dist)

	for i := range int(*shards.Spec.Completions) {
		pod(t, shards, i, bin, data)
	}
	pod(t, merge, -1, bin, data)

	one := filepath.Join(t.TempDir(), "one.json")
	cmd := exec.Command("/bin/sh", "-c", `exec vmaf-score -r "$DATA/$REFERENCE" -d "$DATA/$DISTORTED" $VMAF_OPTIONS -q --json -o "$ONE"`)
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "DATA="+data, "ONE="+one,
		"REFERENCE="+env["REFERENCE"], "DISTORTED="+env["DISTORTED"], "VMAF_OPTIONS="+env["VMAF_OPTIONS"])
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("one run: %v: %s", err, out)
	}
	sameDocument(t, one, filepath.Join(data, "results", env["RUN"]+".json"))
}

// TestBatchJob runs every pod of vmaf-batch over a list, twice: the first
// time scores each pair once, the second finds them all done.
func TestBatchJob(t *testing.T) {
	jobs, _ := manifests(t)
	bin := vmafScoreDir(t)
	data := t.TempDir()
	batch := jobs["vmaf-batch"]
	env := envOf(&batch.Spec.Template.Spec.Containers[0])
	clips := []string{"flower_321x179_ref.y4m", "flower_321x179_x264_crf30.y4m", "storm_640x360_ref.y4m", "storm_640x360_x264_crf35.y4m"}
	for _, c := range clips {
		golden(t, c, filepath.Join(data, "clips", c))
	}
	list := "reference,distorted,options,output\n" +
		"../clips/flower_321x179_ref.y4m,../clips/flower_321x179_x264_crf30.y4m,,../results/flower.json\n" +
		"../clips/storm_640x360_ref.y4m,../clips/storm_640x360_x264_crf35.y4m,--feature psnr,../results/storm.xml\n" +
		"../clips/flower_321x179_ref.y4m,../clips/flower_321x179_ref.y4m,--frame_cnt 3,../results/same.csv\n"
	listPath := filepath.Join(data, "lists", env["LIST"])
	if err := os.MkdirAll(filepath.Dir(listPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(listPath, []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	n := int(*batch.Spec.Completions)
	scored := 0
	for i := range n {
		scored += strings.Count(pod(t, batch, i, bin, data), "ok ")
	}
	if scored != 3 {
		t.Fatalf("%d pods scored %d pairs, want 3", n, scored)
	}
	for i := range n {
		if out := pod(t, batch, i, bin, data); strings.Contains(out, "ok ") {
			t.Fatalf("pod %d scored again: %s", i, out)
		}
	}
	one := filepath.Join(t.TempDir(), "storm.xml")
	cmd := exec.Command(filepath.Join(bin, "vmaf-score"), "-r", filepath.Join(data, "clips", clips[2]),
		"-d", filepath.Join(data, "clips", clips[3]), "--feature", "psnr", "-q", "-o", one)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("one run: %v: %s", err, out)
	}
	sameDocumentXML(t, one, filepath.Join(data, "results", "storm.xml"))
}

func sameDocumentXML(t *testing.T, want, got string) {
	t.Helper()
	w, _ := os.ReadFile(want)
	g, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fpsAttr.ReplaceAll(w, nil), fpsAttr.ReplaceAll(g, nil)) {
		t.Fatalf("%s differs from %s", got, want)
	}
}
