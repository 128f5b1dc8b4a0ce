package control

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestDiagnose(t *testing.T) {
	var recs []Record
	for i := range 40 {
		adm, vif0, score := 0.98, 0.80, 95.0
		if i >= 20 && i <= 29 { // a blur: detail falls far more than VIF fine scale
			adm, vif0, score = 0.78, 0.76, 70
		}
		recs = append(recs, Record{Frame: int64(i), Score: score, Features: map[string]float64{
			"integer_adm2": adm, "integer_vif_scale0": vif0, "integer_vif_scale1": 0.9,
			"integer_vif_scale2": 0.93, "integer_vif_scale3": 0.95, "integer_motion2": 3,
			"adm2": 0.1, // a float feature of another model must not mix in
		}})
	}
	d := diagnose(recs, 20, 29)
	if d.inside != 10 || d.outside != 30 {
		t.Fatalf("inside %d outside %d", d.inside, d.outside)
	}
	i, rel := d.lead()
	if i < 0 || !strings.HasPrefix(components[i].label, "detail loss") || rel > -0.19 || rel < -0.21 {
		t.Errorf("lead = %d %v, want detail loss at -20%%", i, rel)
	}
	if got := d.comp[0][0]; math.Abs(got-0.78) > 1e-12 {
		t.Errorf("ADM inside = %v, want 0.78 (integer only)", got)
	}
	out := d.String()
	for _, want := range []string{"VMAF score", "70.0000", "Largest relative fall: detail loss (ADM), -20.4%"} {
		if !strings.Contains(out, want) {
			t.Errorf("diagnosis lacks %q:\n%s", want, out)
		}
	}
	if out := diagnose(recs, 100, 120).String(); !strings.Contains(out, "not among the recent records") {
		t.Errorf("range outside the records: %s", out)
	}
	if out := diagnose(nil, 0, 1).String(); !strings.Contains(out, "No scored frames") {
		t.Errorf("no records: %s", out)
	}
}

func TestPrompts(t *testing.T) {
	f := newFake()
	s := startTest(t, f, Options{})
	for i := range 10 {
		f.frame(float64(90 - 5*(i/5)))
	}
	cs, _ := connectTest(t, s, "2025-11-25")
	ctx := context.Background()
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(list.Prompts) != 2 {
		t.Fatalf("prompts: %v %v", list, err)
	}
	tests := []struct {
		name string
		args map[string]string
		want string // in the text, or in the error
		err  bool
	}{
		{"monitor_stream", nil, "below 70.0", false},
		{"monitor_stream", map[string]string{"threshold": "55", "window": "12"}, "12 or more consecutive frames score below 55.0", false},
		{"monitor_stream", map[string]string{"threshold": "high"}, "not a number", true},
		{"diagnose_quality_drop", map[string]string{"from": "5", "to": "9"}, "Diagnose the VMAF drop over frames 5..9", false},
		{"diagnose_quality_drop", map[string]string{"from": "9", "to": "5"}, "from <= to", true},
		{"diagnose_quality_drop", nil, "from <= to", true},
	}
	for _, tt := range tests {
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: tt.name, Arguments: tt.args})
		if tt.err {
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s %v: err = %v, want %q", tt.name, tt.args, err, tt.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %v: %v", tt.name, tt.args, err)
			continue
		}
		text := res.Messages[0].Content.(*mcp.TextContent).Text
		if !strings.Contains(text, tt.want) {
			t.Errorf("%s %v: text lacks %q:\n%s", tt.name, tt.args, tt.want, text)
		}
	}
}
