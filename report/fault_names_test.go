package report

import (
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf"
)

// twoInputModel is a small libvmaf model over integer ADM and motion.
const twoInputModel = `{"model_dict": {
  "model_type": "LIBSVMNUSVR",
  "norm_type": "linear_rescale",
  "feature_names": ["VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score"],
  "slopes": [0.02, 1.0, 0.25],
  "intercepts": [-1.0, 0.0, 0.0],
  "score_clip": [0.0, 100.0],
  "model": "svm_type nu_svr\nkernel_type rbf\ngamma 0.25\nnr_class 2\ntotal_sv 2\nrho -1\nSV\n2 1:0.75 2:0.5 \n-1 1:0.2 2:0.1 \n"
}}`

// TestFaultHostileModelFiles: after a swap, a model of the same name took
// its key from its file's name, so a file named `a b".json` made the XML
// results (the default) not well-formed, and one named integer_adm2.json
// pooled a VMAF score under ADM2. Every format stays well-formed and every
// feature its own, whatever the files are called.
func TestFaultHostileModelFiles(t *testing.T) {
	dir := t.TempDir()
	var frames []Frame
	first := builtin(t, "vmaf_v0.6.1")
	names := []string{`a b".json`, "x,y.json", "new\nline.json", "<&>.json", "integer_adm2.json", "frameNum.json", "type.json"}
	for i := range 2 + len(names) {
		m := first
		if i >= 2 {
			p := filepath.Join(dir, names[i-2])
			if err := os.WriteFile(p, []byte(twoInputModel), 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			if m, err = vmaf.ParseModelSpec("path=" + p); err != nil {
				t.Fatalf("%q: %v", p, err)
			}
		}
		frames = append(frames, Frame{Num: i, Models: []*vmaf.Model{m},
			Metrics: []Metric{{Name: "integer_adm2", Value: 0.9}, {Name: "vmaf", Value: 50 + float64(i)}}})
	}
	for _, f := range []Format{XML, JSON, CSV, Sub} {
		doc := writeDoc(t, f, frames)
		t.Run(f.String(), func(t *testing.T) { wellFormed(t, f, doc, len(frames)) })
	}
}

// wellFormed parses doc with the format's own parser and checks that no
// key is repeated and ADM2 holds only ADM2's values.
func wellFormed(t *testing.T, f Format, doc string, frames int) {
	switch f {
	case XML:
		d := xml.NewDecoder(strings.NewReader(doc))
		n := 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("not well-formed: %v\n%s", err, doc)
			}
			if se, ok := tok.(xml.StartElement); ok {
				seen := map[string]bool{}
				for _, a := range se.Attr {
					if seen[a.Name.Local] {
						t.Errorf("<%s> repeats %s", se.Name.Local, a.Name.Local)
					}
					seen[a.Name.Local] = true
					if a.Name.Local == "integer_adm2" && se.Name.Local != "frame" && a.Value != "0.900000" {
						t.Errorf("<%s integer_adm2=%q>", se.Name.Local, a.Value)
					}
				}
				if se.Name.Local == "frame" {
					n++
				}
			}
		}
		if n != frames {
			t.Errorf("%d frames, want %d", n, frames)
		}
	case JSON:
		var v struct {
			Frames []struct {
				FrameNum int                `json:"frameNum"`
				Metrics  map[string]float64 `json:"metrics"`
			} `json:"frames"`
			Pooled map[string]map[string]float64 `json:"pooled_metrics"`
		}
		dec := json.NewDecoder(strings.NewReader(doc))
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("not valid JSON: %v\n%s", err, doc)
		}
		if len(v.Frames) != frames {
			t.Errorf("%d frames, want %d", len(v.Frames), frames)
		}
		for i, fr := range v.Frames {
			if fr.FrameNum != i || fr.Metrics["integer_adm2"] != 0.9 {
				t.Errorf("frame %d: %+v", i, fr)
			}
		}
		if p := v.Pooled["integer_adm2"]; p["max"] != 0.9 {
			t.Errorf("integer_adm2 pooled %v", p)
		}
	case CSV:
		rows, err := csv.NewReader(strings.NewReader(doc)).ReadAll()
		if err != nil {
			t.Fatalf("not valid CSV: %v\n%s", err, doc)
		}
		if len(rows) != frames+1 {
			t.Errorf("%d rows, want %d", len(rows), frames+1)
		}
		seen := map[string]bool{}
		for _, h := range rows[0] {
			if seen[h] {
				t.Errorf("column %q twice", h)
			}
			seen[h] = true
		}
	case Sub:
		lines := strings.Split(strings.TrimSuffix(doc, "\n"), "\n")
		if len(lines) != frames {
			t.Errorf("%d lines, want %d:\n%s", len(lines), frames, doc)
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "{") {
				t.Errorf("line %q", l)
			}
		}
	}
}

// TestFaultModelNames: a swap's name with a newline, comma, space, '/',
// '"', or named frameNum, integer_adm2 or type (the element's frame
// message field) was taken; each is refused with its reason.
func TestFaultModelNames(t *testing.T) {
	for name, says := range map[string]string{
		"a\nb":                   "'\\n' at byte 1",
		"a,b":                    "',' at byte 1",
		"a b":                    "' ' at byte 1",
		"a/b":                    "'/' at byte 1",
		`a"b`:                    "'\"' at byte 1",
		"frameNum":               "field of the results",
		"FRAMENUM":               "field of the results",
		"type":                   "field of the results",
		"integer_adm2":           "name of a feature",
		"psnr_y":                 "name of a feature",
		"1vmaf":                  "starts with '1'",
		"vmaf-min":               "'-' at byte 4",
		strings.Repeat("n", 257): "at most 256",
	} {
		_, err := vmaf.ParseModelSpec("version=vmaf_v0.6.1:name=" + name)
		if err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("name %q: %v, want %q", name, err, says)
		}
	}
	for _, name := range []string{"vmaf", "neg", "vmaf_v0.6.1neg", "_x", strings.Repeat("n", 256)} {
		if _, err := vmaf.ParseModelSpec("version=vmaf_v0.6.1:name=" + name); err != nil {
			t.Errorf("name %q: %v", name, err)
		}
	}
}
