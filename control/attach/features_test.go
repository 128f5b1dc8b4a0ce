package attach

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/vmaf"
)

// TestFeatureRequests: vmaf_features lists the extra-metric requests and
// the extractors they start, with their outputs once scoring started and
// their options; records carry the values; vmaf_list_extractors lists
// every extractor; a swap to a float model scores natively from the next
// frame on, the requests' metrics carrying on.
func TestFeatureRequests(t *testing.T) {
	reqs := []string{"cambi=full_ref=true", "ciede", "psnr=enable_chroma=false", "float_adm=adm_enhn_gain_limit=1.0"}
	m, err := vmaf.BuiltinModel("vmaf_v0.6.1")
	if err != nil {
		t.Fatal(err)
	}
	r, err := pipeline.New(pipeline.Config{
		Scorer:  vmaf.Config{Models: []*vmaf.Model{m}, Features: reqs, Engine: "native", Threads: 1},
		Pairing: pipeline.PairByOrder,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	path := filepath.Join(t.TempDir(), "vmaf.sock")
	p, err := Start(Config{Socket: path, Runner: r, Engine: "native", Features: reqs})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cs := client(t, path)

	var fe control.Features
	call(t, cs, "vmaf_features", nil, &fe)
	if !slices.Equal(fe.Extra, reqs) || len(fe.Requests) != len(reqs) {
		t.Fatalf("before the first frame: extra %v, requests %+v", fe.Extra, fe.Requests)
	}
	if r := fe.Requests[0]; r.Extractor != "cambi" || r.Options["full_ref"] != "true" || len(r.Options) != 1 {
		t.Errorf("cambi request read as %+v", r)
	}
	if r := fe.Requests[1]; r.Extractor != "ciede" || r.Options != nil {
		t.Errorf("ciede request read as %+v", r)
	}
	if e := byRequest(fe.Extractors, reqs[0]); e == nil || e.Name != "cambi" || e.Options["full_ref"] != 1 {
		t.Errorf("before the first frame, cambi's extractor: %+v", e)
	}

	// CAMBI needs pictures of at least 216 lines.
	ref, dist := frames(t, 8, 320, 240)
	for i := range 3 {
		push(t, r, ref[i], dist[i])
	}
	var cmd control.Command
	if msg := call(t, cs, "vmaf_request_model_swap", map[string]any{"model": "vmaf_float_v0.6.1"}, &cmd); msg != "" {
		t.Fatalf("swap to the float model refused: %s", msg)
	}
	for i := 3; i < 8; i++ {
		push(t, r, ref[i], dist[i])
	}
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if got, err := p.target.Wait(ctx, cmd.ID); err != nil || got.Status != control.CommandApplied || got.Frame != 3 {
		t.Fatalf("float swap: %+v, %v", got, err)
	}

	call(t, cs, "vmaf_features", nil, &fe)
	want := map[string][]string{
		reqs[0]: {"cambi", "cambi_full_reference", "cambi_source"},
		reqs[1]: {"ciede2000"},
		reqs[2]: {"psnr_y"},
		reqs[3]: {"adm2_egl_1"}, // libvmaf names float features without a prefix
	}
	for req, outs := range want {
		e := byRequest(fe.Extractors, req)
		if e == nil {
			t.Errorf("no extractor for %q in %+v", req, fe.Extractors)
			continue
		}
		for _, o := range outs {
			if !slices.Contains(e.Outputs, o) {
				t.Errorf("%q: outputs %v lack %s", req, e.Outputs, o)
			}
		}
	}
	if e := byRequest(fe.Extractors, reqs[3]); e != nil && (e.Name != "float_adm" || e.Options["adm_enhn_gain_limit"] != 1) {
		t.Errorf("float_adm request's extractor: %+v", e)
	}
	if e := byRequest(fe.Extractors, reqs[2]); e != nil && (e.Name != "psnr" || slices.Contains(e.Outputs, "psnr_cb") || e.Options["enable_chroma"] != 0) {
		t.Errorf("psnr without chroma: %+v", e)
	}
	// The float model's own extractors are listed too, with no request.
	var float bool
	for _, e := range fe.Extractors {
		float = float || (e.Name == "float_vif" && e.Request == "")
	}
	if !float {
		t.Errorf("after the swap, no float_vif among %+v", fe.Extractors)
	}

	var sc control.Scores
	call(t, cs, "vmaf_score", map[string]any{"last": 8}, &sc)
	if len(sc.Records) != 8 {
		t.Fatalf("%d records", len(sc.Records))
	}
	for _, rec := range sc.Records {
		for _, f := range []string{"cambi", "ciede2000", "psnr_y", "adm2_egl_1"} {
			if _, ok := rec.Features[f]; !ok {
				t.Errorf("frame %d lacks %s: %v", rec.Frame, f, rec.Features)
			}
		}
		_, fvif := rec.Features["vif_scale0"]
		if wantModel := map[bool]string{false: "vmaf_v0.6.1", true: "vmaf_float_v0.6.1"}[rec.Frame >= 3]; rec.Model != wantModel || fvif != (rec.Frame >= 3) {
			t.Errorf("frame %d: model %s, vif_scale0 %v", rec.Frame, rec.Model, fvif)
		}
		if !(rec.Score > 0 && rec.Score <= 100) {
			t.Errorf("frame %d: score %v", rec.Frame, rec.Score)
		}
	}

	var el control.ExtractorList
	call(t, cs, "vmaf_list_extractors", nil, &el)
	if len(el.Extractors) != len(vmaf.Extractors()) {
		t.Fatalf("vmaf_list_extractors: %d extractors, the engine has %d", len(el.Extractors), len(vmaf.Extractors()))
	}
	for _, e := range el.Extractors {
		if e.Name == "cambi" {
			i := slices.IndexFunc(e.Options, func(o control.ExtractorOption) bool { return o.Name == "full_ref" })
			if !slices.Contains(e.Outputs, "cambi") || i < 0 || e.Options[i].Type != "bool" || e.Options[i].Default != "false" {
				t.Errorf("cambi listed as %+v", e)
			}
		}
	}
}

func byRequest(exs []control.Extractor, req string) *control.Extractor {
	for i := range exs {
		if exs[i].Request == req {
			return &exs[i]
		}
	}
	return nil
}

// TestRequestsRead: requests are read as libvmaf's grammar writes them,
// and matched to the instance whose renamed options they set.
func TestRequestsRead(t *testing.T) {
	got := requests([]string{"vif", "psnr=enable_chroma=false:enable_apsnr=true", "cambi=eotf=pq"})
	if got[0].Extractor != "integer_vif" || got[0].Options != nil {
		t.Errorf("vif: %+v", got[0])
	}
	if got[1].Extractor != "psnr" || len(got[1].Options) != 2 || got[1].Options["enable_apsnr"] != "true" {
		t.Errorf("psnr: %+v", got[1])
	}
	exs := withRequests([]control.Extractor{
		{Name: "integer_vif", Outputs: []string{"integer_vif_scale0_egl_1"}, Options: map[string]float64{"vif_enhn_gain_limit": 1}},
		{Name: "integer_vif", Outputs: []string{"integer_vif_scale0"}},
	}, got)
	if exs[0].Request != "" || exs[1].Request != "vif" {
		t.Errorf("vif matched %q and %q, want the default instance", exs[0].Request, exs[1].Request)
	}
	// Not scored yet: listed on their own; string options stay in the request only.
	if len(exs) != 4 || exs[3].Name != "cambi" || exs[3].Options != nil || exs[2].Options["enable_chroma"] != 0 || exs[2].Options["enable_apsnr"] != 1 {
		t.Errorf("unmatched requests: %+v", exs[2:])
	}
}
