package control

import (
	"context"
	"encoding/json"
	"fmt"
	"image"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const toolWorstFrames = "vmaf_worst_frames"

// Bounds on vmaf_worst_frames. A reply carries at most maxWorstFrames
// frames and, past maxWorstImageBytes of PNG, no further images (the
// reply says how many it left out): images="all" at 640 wide for 32
// frames would otherwise run to tens of megabytes, past the 16 MiB line
// the Go SDK's clients read by default (base64 adds a third).
const (
	defaultWorstFrames = 8
	maxWorstFrames     = 32
	maxWorstImageWidth = 640
	maxWorstImageBytes = 8 << 20
)

// Images a vmaf_worst_frames reply carries.
const (
	WorstImagesNone      = "none"
	WorstImagesDistorted = "distorted"
	WorstImagesAll       = "all"
)

// Names of a worst frame's images.
const (
	ImageReference  = "reference"
	ImageDistorted  = "distorted"
	ImageDifference = "difference"
)

// WorstSource is what a Target offers when it keeps its worst frames with
// their pictures; vmaf_worst_frames answers from it.
type WorstSource interface {
	// WorstFrames returns up to n of the lowest-scoring frames so far,
	// worst first.
	WorstFrames(n int) WorstFrames
}

// WorstFrames is what a WorstSource holds.
type WorstFrames struct {
	Frames []WorstFrame
	// Kept is how many frames the target keeps with images (its
	// worst-frames setting); 0 when it keeps none.
	Kept int
}

// WorstFrame is one of the lowest-scoring frames.
type WorstFrame struct {
	Record        Record
	RunningTimeNS int64
	// Width and Height are the kept images' size; 0 without images.
	Width, Height int
	// Image renders the named image (ImageReference, ImageDistorted or
	// ImageDifference) at most maxWidth wide; nil without images.
	Image func(name string, maxWidth int) (image.Image, error)
}

type worstArgs struct {
	N        int    `json:"n,omitempty" jsonschema:"how many of the worst frames to return, worst first (default 8)"`
	Images   string `json:"images,omitempty" jsonschema:"which images to attach as PNG: none, distorted (default) or all (reference, distorted and the difference heatmap)"`
	MaxWidth int    `json:"max_width,omitempty" jsonschema:"widest image in pixels (default and most: the kept width, at most 640)"`
}

// WorstReply is the structured content of vmaf_worst_frames.
type WorstReply struct {
	Frames []WorstFrameInfo `json:"frames" jsonschema:"the lowest-scoring frames so far, worst first"`
	// Kept mirrors WorstFrames.Kept.
	Kept          int    `json:"kept" jsonschema:"how many worst frames the measurement keeps with images (the worst-frames setting; 0: none)"`
	ImagesOmitted int    `json:"images_omitted,omitempty" jsonschema:"images left out because the reply reached its size bound; ask for fewer frames, fewer images or a smaller max_width"`
	Heatmap       string `json:"heatmap" jsonschema:"how the difference image maps mean |reference - distorted| luma to colour"`
}

// WorstFrameInfo is one frame of a vmaf_worst_frames reply.
type WorstFrameInfo struct {
	Record
	RunningTimeNS int64    `json:"running_time_ns" jsonschema:"running time in nanoseconds, -1 when unknown"`
	Width         int      `json:"width,omitempty" jsonschema:"kept images' width in pixels (0: no images kept for this frame)"`
	Height        int      `json:"height,omitempty" jsonschema:"kept images' height in pixels"`
	Images        []string `json:"images,omitempty" jsonschema:"the images attached for this frame, in the order of their content blocks: reference, distorted, difference"`
}

// HeatmapLegend documents the difference image's colours.
const HeatmapLegend = "mean |reference - distorted| luma over each pixel's area, in 8-bit code values: black 0, blue 4, cyan 8, yellow 16, red 32, white 64 or more, linear between"

func (s *Server) addWorstTool() {
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: toolWorstFrames,
		Description: fmt.Sprintf("The lowest-scoring frames so far, worst first (n, default %d, at most %d): frame index, running time, model, score and features, with the frames' pictures as PNG image content for a vision-capable model to look at: images=distorted (default) the distorted frame, images=all also the reference and a difference heatmap (%s), images=none records only. Each image follows a text block naming its frame and kind. Images are kept downscaled to at most 640 px wide for the worst frames (the worst-frames setting, default 8); max_width reduces them further. Frames ranked beyond that setting come without images.",
			defaultWorstFrames, maxWorstFrames, HeatmapLegend),
		Annotations: readOnly("VMAF worst frames"),
		InputSchema: schemaFor[worstArgs](func(p map[string]*jsonschema.Schema) {
			bound(p["n"], 0, maxWorstFrames)
			bound(p["max_width"], 0, maxWorstImageWidth)
			p["images"].Enum = []any{WorstImagesNone, WorstImagesDistorted, WorstImagesAll}
		}),
	}, s.toolWorstFrames)
}

func (s *Server) toolWorstFrames(ctx context.Context, _ *mcp.CallToolRequest, in worstArgs) (*mcp.CallToolResult, WorstReply, error) {
	src, ok := s.target.(WorstSource)
	if !ok {
		return nil, WorstReply{}, Errorf(CodeBadRequest, "this measurement keeps no worst frames")
	}
	n := in.N
	if n == 0 {
		n = defaultWorstFrames
	}
	if n < 0 || n > maxWorstFrames {
		return nil, WorstReply{}, Errorf(CodeBadRequest, "n must be between 1 and %d, not %d", maxWorstFrames, n)
	}
	var kinds []string
	switch in.Images {
	case WorstImagesNone:
	case "", WorstImagesDistorted:
		kinds = []string{ImageDistorted}
	case WorstImagesAll:
		kinds = []string{ImageReference, ImageDistorted, ImageDifference}
	default:
		return nil, WorstReply{}, Errorf(CodeBadRequest, "images must be none, distorted or all, not %q", in.Images)
	}
	if in.MaxWidth < 0 || in.MaxWidth > maxWorstImageWidth {
		return nil, WorstReply{}, Errorf(CodeBadRequest, "max_width must be between 1 and %d, not %d", maxWorstImageWidth, in.MaxWidth)
	}
	if len(kinds) == 0 {
		return s.worstReply(ctx, src, n, kinds, in.MaxWidth)
	}
	var (
		res   *mcp.CallToolResult
		reply WorstReply
		err   error
	)
	if herr := s.heavy(ctx, "vmaf_worst_frames with images", func() int {
		res, reply, err = s.worstReply(ctx, src, n, kinds, in.MaxWidth)
		size := 0
		if res != nil {
			for _, c := range res.Content {
				if im, ok := c.(*mcp.ImageContent); ok {
					size += len(im.Data) * 4 / 3 // base64
				}
			}
		}
		return size
	}); herr != nil {
		return nil, WorstReply{}, herr
	}
	return res, reply, err
}

// worstReply renders the worst frames' reply, with kinds of images each.
func (s *Server) worstReply(ctx context.Context, src WorstSource, n int, kinds []string, maxWidth int) (*mcp.CallToolResult, WorstReply, error) {
	w := src.WorstFrames(n)
	reply := WorstReply{Frames: make([]WorstFrameInfo, 0, len(w.Frames)), Kept: w.Kept, Heatmap: HeatmapLegend}
	res := &mcp.CallToolResult{}
	var content []mcp.Content
	size := 0
	for _, f := range w.Frames {
		info := WorstFrameInfo{Record: sanitize(f.Record), RunningTimeNS: f.RunningTimeNS, Width: f.Width, Height: f.Height}
		for _, k := range kinds {
			if f.Image == nil {
				break
			}
			if err := ctx.Err(); err != nil {
				return nil, WorstReply{}, err
			}
			if size >= maxWorstImageBytes {
				reply.ImagesOmitted++
				continue
			}
			im, err := s.worstPNGs.get(ctx, f, k, maxWidth)
			if err != nil {
				return nil, WorstReply{}, err
			}
			size += len(im.data)
			content = append(content,
				&mcp.TextContent{Text: fmt.Sprintf("frame %d %s (score %.3f, %dx%d)", f.Record.Frame, k, info.Score, im.width, im.height)},
				&mcp.ImageContent{Data: im.data, MIMEType: "image/png"})
			info.Images = append(info.Images, k)
		}
		reply.Frames = append(reply.Frames, info)
	}
	if len(content) == 0 {
		// The SDK then puts the structured reply in a text block itself.
		return nil, reply, nil
	}
	// The records lead as text too, for clients that read only content.
	js, err := json.Marshal(reply)
	if err != nil {
		return nil, WorstReply{}, fmt.Errorf("control: worst frames reply: %w", err)
	}
	res.Content = append([]mcp.Content{&mcp.TextContent{Text: string(js)}}, content...)
	return res, reply, nil
}
