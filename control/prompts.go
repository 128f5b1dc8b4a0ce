package control

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (s *Server) addPrompts() {
	s.mcp.AddPrompt(&mcp.Prompt{
		Name:        "monitor_stream",
		Title:       "Monitor the stream's VMAF",
		Description: "Watch live VMAF scores, flag sustained drops below a threshold and suggest a model swap when the model does not fit the stream.",
		Arguments: []*mcp.PromptArgument{
			{Name: "threshold", Description: "VMAF score below which a frame counts as poor (default 70)"},
			{Name: "window", Description: "consecutive poor frames that make a sustained drop (default 30)"},
		},
	}, s.promptMonitor)
	s.mcp.AddPrompt(&mcp.Prompt{
		Name:        "diagnose_quality_drop",
		Title:       "Diagnose a VMAF drop",
		Description: "Given a frame range, read the per-frame features and say which component (detail loss, artefacts, motion) drove the drop.",
		Arguments: []*mcp.PromptArgument{
			{Name: "from", Description: "first frame index of the drop", Required: true},
			{Name: "to", Description: "last frame index of the drop", Required: true},
		},
	}, s.promptDiagnose)
}

// invalidParams is a JSON-RPC invalid-params error: the SDK answers a
// plain error from a prompt handler with code 0.
func invalidParams(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// maxPromptArg bounds a prompt argument: they are numbers, and an error
// quotes them.
const maxPromptArg = 64

// argRange is what a prompt argument may be: lo..hi, whole when integer.
type argRange struct {
	lo, hi  float64
	integer bool
}

// Ranges of the prompts' arguments: a score, a run of frames, a frame
// index (integers within ±2^53 convert exactly, and to an int64 without
// wrapping: past int64, "to" printed a negative frame).
var (
	scoreArg  = argRange{0, 100, false}
	windowArg = argRange{1, 1e6, true}
	frameArg  = argRange{0, 1 << 53, true}
)

func promptArg(req *mcp.GetPromptRequest, name string, def float64, r argRange) (float64, error) {
	v, ok := req.Params.Arguments[name]
	if !ok || strings.TrimSpace(v) == "" {
		return def, nil
	}
	if len(v) > maxPromptArg {
		return 0, invalidParams("argument %s: %d bytes is not a number (at most %d bytes)", name, len(v), maxPromptArg)
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return 0, invalidParams("argument %s: %q is not a number", name, v)
	}
	if !finite(f) {
		return 0, invalidParams("argument %s: %q is not a finite number", name, v)
	}
	if f < r.lo || f > r.hi || r.integer && f != math.Trunc(f) {
		kind := "a number"
		if r.integer {
			kind = "a whole number"
		}
		return 0, invalidParams("argument %s: %q is not %s from %.0f to %.0f", name, v, kind, r.lo, r.hi)
	}
	return f, nil
}

func userText(text string) *mcp.PromptMessage {
	return &mcp.PromptMessage{Role: "user", Content: &mcp.TextContent{Text: text}}
}

func (s *Server) promptMonitor(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	threshold, err := promptArg(req, "threshold", 70, scoreArg)
	if err != nil {
		return nil, err
	}
	window, err := promptArg(req, "window", 30, windowArg)
	if err != nil {
		return nil, err
	}
	st := s.target.Status()
	var b strings.Builder
	fmt.Fprintf(&b, "Monitor the VMAF measurement served by this MCP server (%s).\n\n", s.where())
	fmt.Fprintf(&b, "Now: state %s, model %s, %dx%d %s, %d frames scored", st.State, st.Model, st.Width, st.Height, st.Format, st.FramesScored)
	if st.LastScore != nil {
		fmt.Fprintf(&b, ", last score %.2f", *st.LastScore)
	}
	b.WriteString(".\n")
	for _, w := range st.Warnings {
		fmt.Fprintf(&b, "Warning: %s\n", w)
	}
	if cfg := s.target.Analytics().Config(); cfg.AlertThreshold > 0 {
		b.WriteString(monitorAlertSteps(cfg))
		return &mcp.GetPromptResult{Description: "Monitor live VMAF scores", Messages: []*mcp.PromptMessage{userText(b.String())}}, nil
	}
	fmt.Fprintf(&b, `
1. Subscribe to %s (each notification carries the frame record in _meta.record) or poll vmaf_score with last=%d.
2. Flag a sustained drop when %d or more consecutive frames score below %.1f. Report its frame range, the lowest score and the pooled mean so far.
3. For each drop, call vmaf_score with worst=5 and use the diagnose_quality_drop prompt (or compare the features yourself) to name the cause.
4. If vmaf_status warns that the model does not fit the stream (for example a 4K model on small frames, whose scores saturate near 100), suggest vmaf_request_model_swap with a fitting model from vmaf_list_models; ask the user before swapping.
5. Note any frames_unpaired or frames_skipped growth: they mean frames are not being scored.
`, liveURI, int(window), int(window), threshold)
	return &mcp.GetPromptResult{
		Description: "Monitor live VMAF scores",
		Messages:    []*mcp.PromptMessage{userText(b.String())},
	}, nil
}

func (s *Server) promptDiagnose(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	from, err := promptArg(req, "from", -1, frameArg)
	if err != nil {
		return nil, err
	}
	to, err := promptArg(req, "to", -1, frameArg)
	if err != nil {
		return nil, err
	}
	if from < 0 || to < from {
		return nil, invalidParams("need 0 <= from <= to, got from=%v to=%v", from, to)
	}
	sc := s.target.Scores(maxLast, 0)
	d := diagnose(sc.Records, int64(from), int64(to))
	var b strings.Builder
	fmt.Fprintf(&b, "Diagnose the VMAF drop over frames %d..%d.\n\n", int64(from), int64(to))
	b.WriteString(d.String())
	b.WriteString(`
VMAF fuses: ADM (integer_adm2: detail preserved; it falls with blur and lost texture), VIF (integer_vif_scale0..3:
information fidelity; scale0 falls first with noise, blocking and ringing artefacts, coarser scales with blur) and
motion (integer_motion2: how much the reference moves; high motion masks artefacts, so a drop during low motion is
more visible). Using the figures above (and vmaf_score with last/worst for more frames), say which component drove
the drop — detail loss, artefacts, or motion — and what in the encode or the network likely caused it.
`)
	return &mcp.GetPromptResult{
		Description: "Diagnose a VMAF drop",
		Messages:    []*mcp.PromptMessage{userText(b.String())},
	}, nil
}
