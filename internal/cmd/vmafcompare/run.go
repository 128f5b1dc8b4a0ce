package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// compareDirs scores every pair of c.dirs with both tools and reports.
func compareDirs(c config, stdout, stderr io.Writer) int {
	tmp, err := os.MkdirTemp("", "vmafcompare-")
	if err != nil {
		fmt.Fprintf(stderr, "vmafcompare: %v\n", err)
		return exitError
	}
	if c.keep {
		fmt.Fprintf(stderr, "vmafcompare: keeping %s\n", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}

	if nativeOnly(c.oursArgs) {
		fmt.Fprintln(stderr, "vmafcompare: vmaf-score runs the native engine, which has no float models: vmaf_float is left out")
	}
	cmp := newComparison(c.ignore)
	compared, failed := 0, 0
	for _, dir := range c.dirs {
		pairs, err := findPairs(dir)
		if err != nil {
			fmt.Fprintf(stderr, "vmafcompare: %s: %v\n", dir, err)
			return exitError
		}
		for _, p := range pairs {
			if c.only != nil && !c.only.MatchString(p.name) {
				continue
			}
			fmt.Fprintf(stderr, "scoring %s\n", p.name)
			want, got, err := scorePair(c, p, tmp)
			if err != nil {
				cmp.problem("%s: %v", p.name, err)
				failed++
				continue
			}
			cmp.add(p.name, want, got)
			compared++
			if p.scores != "" {
				stored, err := readLog(p.scores)
				if err != nil {
					cmp.problem("%s: %v", p.name, err)
					continue
				}
				cmp.checkStored(p.name, stored, want)
			}
		}
	}
	if compared == 0 && failed == 0 {
		fmt.Fprintf(stderr, "vmafcompare: no pairs found in %s\n", strings.Join(c.dirs, ", "))
		return exitError
	}
	ok := cmp.report(stdout, c.tol)
	switch {
	case failed > 0:
		return exitError
	case !ok:
		return exitDiffers
	}
	return exitOK
}

// scorePair converts both clips to raw frames once and runs both tools on
// them. Its files are removed afterwards unless c.keep is set.
func scorePair(c config, p pair, tmp string) (want, got *vmafLog, err error) {
	base := filepath.Join(tmp, p.name)
	refRaw, distRaw := base+".ref.yuv", base+".dis.yuv"
	refY4M, distY4M := "", ""
	if c.oursInput == "y4m" {
		refY4M, distY4M = base+".ref.y4m", base+".dis.y4m"
	}
	if !c.keep {
		defer func() {
			for _, f := range []string{refRaw, distRaw, refY4M, distY4M} {
				if f != "" {
					os.Remove(f)
				}
			}
		}()
	}
	gr, err := convertFile(p.ref, refRaw, refY4M, c.frames)
	if err != nil {
		return nil, nil, fmt.Errorf("reference: %w", err)
	}
	gd, err := convertFile(p.dist, distRaw, distY4M, c.frames)
	if err != nil {
		return nil, nil, fmt.Errorf("distorted: %w", err)
	}
	if gr.width != gd.width || gr.height != gd.height || gr.chroma != gd.chroma || gr.bitDepth != gd.bitDepth {
		return nil, nil, fmt.Errorf("reference is %+v but distorted %+v", gr, gd)
	}

	wantLog := base + ".libvmaf.json"
	// The stored logs' other metrics are still checked without the
	// float model (largestDiff compares what both logs have).
	withFloat := !nativeOnly(c.oursArgs)
	args := append(rawArgs(refRaw, distRaw, gr), commonArgs(c, wantLog, withFloat)...)
	if err := runTool(c.libvmaf, args); err != nil {
		return nil, nil, fmt.Errorf("libvmaf: %w", err)
	}
	gotLog := base + ".vmaf-score.json"
	args = rawArgs(refRaw, distRaw, gr)
	if c.oursInput == "y4m" {
		args = []string{"-r", refY4M, "-d", distY4M}
	}
	args = append(append(append([]string{}, c.oursArgs...), args...), commonArgs(c, gotLog, withFloat)...)
	if err := runTool(c.ours, args); err != nil {
		return nil, nil, fmt.Errorf("vmaf-score: %w", err)
	}
	if want, err = readLog(wantLog); err != nil {
		return nil, nil, err
	}
	if got, err = readLog(gotLog); err != nil {
		return nil, nil, err
	}
	return want, got, nil
}

func convertFile(clip, raw, y4mPath string, frames int) (geometry, error) {
	in, err := openClip(clip)
	if err != nil {
		return geometry{}, err
	}
	defer in.Close()
	rawF, err := os.Create(raw)
	if err != nil {
		return geometry{}, fmt.Errorf("creating raw file: %w", err)
	}
	defer rawF.Close()
	var y4mW io.Writer
	if y4mPath != "" {
		f, err := os.Create(y4mPath)
		if err != nil {
			return geometry{}, fmt.Errorf("creating y4m file: %w", err)
		}
		defer f.Close()
		y4mW = f
	}
	g, err := convertClip(in, rawF, y4mW, frames)
	if err != nil {
		return g, fmt.Errorf("%s: %w", clip, err)
	}
	return g, rawF.Close()
}

// rawArgs are the input options of libvmaf's tool for raw frames.
func rawArgs(ref, dist string, g geometry) []string {
	return []string{"-r", ref, "-d", dist,
		"-w", strconv.Itoa(g.width), "-h", strconv.Itoa(g.height),
		"-p", g.chroma, "-b", strconv.Itoa(g.bitDepth)}
}

// commonArgs are the scoring options of the golden set: four models (three
// without withFloat), PSNR, SSIM and MS-SSIM, JSON output.
func commonArgs(c config, out string, withFloat bool) []string {
	args := []string{
		"--threads", strconv.Itoa(c.threads), "-q", "--json", "-o", out,
		"-m", "version=vmaf_v0.6.1",
		"-m", "version=vmaf_v0.6.1neg:name=vmaf_neg",
		"-m", "version=vmaf_4k_v0.6.1:name=vmaf_4k",
		"--feature", "psnr", "--feature", "float_ssim", "--feature", "float_ms_ssim",
	}
	if withFloat {
		float := "version=vmaf_float_v0.6.1:name=vmaf_float"
		if c.modelDir != "" {
			float = "path=" + filepath.Join(c.modelDir, "vmaf_float_v0.6.1.json") + ":name=vmaf_float"
		}
		args = append(args, "-m", float)
	}
	return args
}

// nativeOnly reports whether vmaf-score's arguments pin the native
// engine, which has no float models.
func nativeOnly(args []string) bool {
	for i, a := range args {
		if a == "--engine=native" || a == "--engine" && i+1 < len(args) && args[i+1] == "native" {
			return true
		}
	}
	return false
}

// runTool runs a scoring tool, returning the end of its output on failure.
func runTool(bin string, args []string) error {
	var out bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if len(msg) > 600 {
			msg = "..." + msg[len(msg)-600:]
		}
		return fmt.Errorf("%s %s: %w\n%s", bin, strings.Join(args, " "), err, msg)
	}
	return nil
}
