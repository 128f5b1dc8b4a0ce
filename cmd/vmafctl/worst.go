package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vmafsink/vmafsink/control"
)

// worstOutput is what worst -json prints: the tool's reply and the files
// written.
type worstOutput struct {
	control.WorstReply
	Files []string `json:"files,omitempty"`
}

func cmdWorst(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
	fs := flags("worst", &g, stderr)
	n := fs.Int("n", 8, "how many of the worst frames (at most 32 from a socket)")
	images := fs.String("images", control.WorstImagesDistorted, "which images to save: all (reference, distorted, difference), distorted or none")
	maxWidth := fs.Int("max-width", 0, "widest image in pixels (0: as kept, at most 640)")
	dir := fs.String("o", "", "directory to save the PNG files in (created if missing)")
	model := fs.String("model", "", "with a results file: the model score to rank by (default vmaf, or the first vmaf_* the frames carry)")
	pos, err := parse(fs, args)
	if err != nil {
		return report(stderr, err)
	}
	if len(pos) > 0 {
		return worstFromFile(pos, *n, *model, *dir, g.json, stdout, stderr)
	}
	if *model != "" {
		return report(stderr, fail(exitUsage, "worst: -model ranks a results file's frames; the control plane ranks by its own model"))
	}
	switch *images {
	case control.WorstImagesAll, control.WorstImagesDistorted, control.WorstImagesNone:
	default:
		return report(stderr, fail(exitUsage, "worst: -images %q: want all, distorted or none", *images))
	}
	if *n < 1 || *n > 32 {
		return report(stderr, fail(exitUsage, "worst: -n %d: want 1 to 32", *n))
	}
	if *maxWidth < 0 || *maxWidth > 640 {
		return report(stderr, fail(exitUsage, "worst: -max-width %d: want 0 to 640", *maxWidth))
	}
	if *images != control.WorstImagesNone && *dir == "" {
		return report(stderr, fail(exitUsage, "worst: -o DIR is required to save images (or -images none)"))
	}
	req := map[string]any{"n": *n, "images": *images}
	if *maxWidth > 0 {
		req["max_width"] = *maxWidth
	}
	var out worstOutput
	var res *mcp.CallToolResult
	if err := withSession(ctx, g, func(ctx context.Context, s *session) error {
		var err error
		res, err = s.callResult(ctx, "vmaf_worst_frames", req, &out.WorstReply)
		return err
	}); err != nil {
		return report(stderr, err)
	}
	files, err := saveWorst(*dir, out.Frames, res.Content)
	if err != nil {
		return report(stderr, err)
	}
	out.Files = files
	if g.json {
		printJSON(stdout, out)
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "frame\trunning time\tmodel\tscore\tfiles")
	k := 0
	for _, f := range out.Frames {
		names := files[k : k+len(f.Images)]
		k += len(f.Images)
		rt := "-"
		if f.RunningTimeNS >= 0 {
			rt = time.Duration(f.RunningTimeNS).Round(time.Millisecond).String()
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.3f\t%s\n", f.Frame, rt, f.Model, f.Score, strings.Join(names, " "))
	}
	tw.Flush()
	if out.ImagesOmitted > 0 {
		fmt.Fprintf(stderr, "vmafctl: %d images left out of the reply (its size bound): ask for fewer frames or a smaller -max-width\n", out.ImagesOmitted)
	}
	if out.Kept == 0 && *images != control.WorstImagesNone {
		fmt.Fprintln(stderr, "vmafctl: the measurement keeps no images (worst-frames is 0)")
	}
	return exitOK
}

// saveWorst writes each image block as DIR/frame-NNNNNN-KIND.png; the
// blocks come in the order the frames list their images.
func saveWorst(dir string, frames []control.WorstFrameInfo, content []mcp.Content) ([]string, error) {
	var imgs []*mcp.ImageContent
	for _, c := range content {
		if ic, ok := c.(*mcp.ImageContent); ok {
			imgs = append(imgs, ic)
		}
	}
	want := 0
	for _, f := range frames {
		want += len(f.Images)
	}
	if want != len(imgs) {
		return nil, fail(exitError, "worst: the reply lists %d images but carries %d", want, len(imgs))
	}
	if want == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fail(exitError, "worst: %v", err)
	}
	var files []string
	k := 0
	for _, f := range frames {
		for _, kind := range f.Images {
			ic := imgs[k]
			k++
			if ic.MIMEType != "image/png" {
				return files, fail(exitError, "worst: frame %d %s image is %s, not image/png", f.Frame, kind, ic.MIMEType)
			}
			path := filepath.Join(dir, fmt.Sprintf("frame-%06d-%s.png", f.Frame, kind))
			if err := os.WriteFile(path, ic.Data, 0o644); err != nil {
				return files, fail(exitError, "worst: %v", err)
			}
			files = append(files, path)
		}
	}
	return files, nil
}

// worstFromFile lists a results file's worst frames: scores only, as the
// file has no pictures.
func worstFromFile(pos []string, n int, model, dir string, asJSON bool, stdout, stderr io.Writer) int {
	switch {
	case len(pos) > 1:
		return report(stderr, fail(exitUsage, "worst: one results file at a time"))
	case dir != "":
		return report(stderr, fail(exitUsage, "worst: a results file holds scores, not pictures; vmaf-score --worst-dir DIR (the element's worst-dir) writes the worst frames' pictures when its run ends"))
	case n < 1:
		return report(stderr, fail(exitUsage, "worst: -n %d: want 1 or more", n))
	}
	w, err := worstInFile(pos[0], model, n)
	if err != nil {
		return report(stderr, err)
	}
	printWorstInFile(w, asJSON, stdout)
	return exitOK
}
