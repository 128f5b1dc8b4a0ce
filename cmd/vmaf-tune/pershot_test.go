package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/vmafsink/vmafsink/tune"
)

// cutClip is two golden clips one after the other at one size: a cut at
// frame 48.
func cutClip(t *testing.T) string {
	return clips.FFmpeg(t, "cut.y4m", "-i", clips.Y4M(t, "flower_576x324_ref.y4m"), "-i", clips.Y4M(t, "storm_640x360_ref.y4m"),
		"-filter_complex", "[1:v]scale=576:324:flags=lanczos,format=yuv420p,setsar=1[b];[0:v]setsar=1[a];[a][b]concat=n=2:v=1",
		"-f", "yuv4mpegpipe")
}

// TestPerShot plans a clip with one cut: two shots split at the cut, a
// CRF each meeting the target; the in-process encode scored whole meets
// it too; and the plan's ffmpeg commands, run as printed, give an encode
// vmaf-score scores as the in-process one.
func TestPerShot(t *testing.T) {
	src := cutClip(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "plan.ts")
	code, stdout, errOut := runTune(t, "per-shot", "-i", src, "--encoder", "libx264", "--preset", "veryfast", "--target", "92",
		"-o", out, "--json", "-q", "--no-cache")
	if code != exitOK {
		t.Fatalf("per-shot: exit %d: %s", code, errOut)
	}
	var r tune.PerShotResult
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Shots) != 2 || r.Shots[0].StartFrame != 0 || r.Shots[0].EndFrame != 48 || r.Shots[1].EndFrame != 72 {
		t.Fatalf("shots %+v", r.Shots)
	}
	for _, sh := range r.Shots {
		if sh.VMAF < 92 || sh.Frames != sh.EndFrame-sh.StartFrame {
			t.Errorf("shot %+v", sh)
		}
	}
	if r.Shots[0].CRF == r.Shots[1].CRF {
		t.Logf("both shots at CRF %g", r.Shots[0].CRF)
	}
	if r.OutputVMAF == nil || r.TargetMet == nil || !*r.TargetMet || math.Abs(*r.OutputVMAF-r.PredictedVMAF) > 1 {
		t.Fatalf("encoded plan: %+v", r)
	}
	inProcess := scoreWithVMAFScore(t, src, out)
	if math.Abs(inProcess-*r.OutputVMAF) > 1e-3 {
		t.Errorf("vmaf-score scores the plan's encode %.4f, per-shot said %.4f", inProcess, *r.OutputVMAF)
	}

	// The printed commands, run in a directory of their own.
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "shots.txt"), []byte(r.ConcatList), 0o644); err != nil {
		t.Fatal(err)
	}
	if len(r.Commands) != 3 {
		t.Fatalf("commands %q", r.Commands)
	}
	last := r.Commands[len(r.Commands)-1]
	last[len(last)-1] = "cli.ts"
	for _, c := range r.Commands {
		cmd := exec.Command(c[0], append([]string{"-v", "error", "-y"}, c[1:]...)...)
		cmd.Dir = work
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%q: %v\n%s", c, err, b)
		}
	}
	cli := scoreWithVMAFScore(t, src, filepath.Join(work, "cli.ts"))
	t.Logf("plan %+v; in-process %.3f, ffmpeg commands %.3f", r.Shots, inProcess, cli)
	if math.Abs(cli-inProcess) > 0.5 {
		t.Errorf("the ffmpeg commands' encode scores %.3f, the in-process one %.3f", cli, inProcess)
	}
}

func TestPerShotRefusesGlobalHeaders(t *testing.T) {
	code, _, errOut := runTune(t, "per-shot", "-i", cutClip(t), "--encoder", "libx264", "--target", "90",
		"-o", filepath.Join(t.TempDir(), "plan.mp4"), "-q", "--no-cache")
	if code != exitError || !contains(errOut, "in-band headers") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
