package metrics

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/analytics"
)

const dashboardFile = "../examples/grafana/vmafsink-dashboard.json"

// dashboardQueries returns every PromQL expression of the example Grafana
// dashboard: its panels' targets and its variables' queries.
func dashboardQueries(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Title  string `json:"title"`
		Panels []struct {
			Title   string `json:"title"`
			Type    string `json:"type"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
		Templating struct {
			List []struct {
				Name       string `json:"name"`
				Definition string `json:"definition"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	if d.Title == "" || len(d.Panels) == 0 {
		t.Fatalf("%s: no title or no panels", dashboardFile)
	}
	var out []string
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, q := range p.Targets {
			if q.Expr == "" {
				t.Errorf("panel %q has an empty query", p.Title)
			}
			out = append(out, q.Expr)
		}
	}
	for _, v := range d.Templating.List {
		if v.Definition != "" {
			out = append(out, v.Definition)
		}
	}
	return out
}

// TestDashboardMetrics: the example dashboard is valid JSON, and every
// metric its queries name is one the exporter serves, so that a rename
// here cannot leave the dashboard drawing nothing.
func TestDashboardMetrics(t *testing.T) {
	r := newRunnerWith(t, analytics.Config{WindowFrames: 1, AlertThreshold: 50})
	e := newExporter(t, Config{Element: "e", Runner: r, Clients: func() int { return 0 }})
	push(t, r, 0, 4)
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	fams, err := e.Gatherer().Gather()
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, f := range fams {
		served[f.GetName()] = true
	}
	name := regexp.MustCompile(`\bvmaf_[a-z_]+`)
	seen := map[string]bool{}
	for _, q := range dashboardQueries(t) {
		for _, m := range name.FindAllString(q, -1) {
			base := m
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				if b, ok := strings.CutSuffix(m, suffix); ok && b == "vmaf_score" {
					base = b
				}
			}
			if !served[base] {
				t.Errorf("the dashboard queries %s, which the exporter does not serve (query %s)", m, q)
			}
			seen[base] = true
		}
	}
	// The dashboard shows every vmaf_ metric.
	for n := range served {
		if strings.HasPrefix(n, "vmaf_") && !seen[n] {
			t.Errorf("the dashboard shows nothing of %s", n)
		}
	}
}
