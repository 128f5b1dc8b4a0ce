package feature

import "testing"

var testKind = &Kind{Name: "demo", Options: []Option{
	{Name: "enable_x", Alias: "x", Type: Bool, Param: true},
	{Name: "gain", Alias: "g", Type: Double, Default: 100, Min: 1, Max: 100, Param: true},
	{Name: "width", Alias: "w", Type: Int, Default: 0, Min: 0, Max: 4096, Param: true},
	{Name: "eotf", Alias: "e", Type: String, DefaultString: "bt1886"},
	{Name: "debug", Type: Bool},
}}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, suffix, err string
	}{
		{in: "", suffix: ""},
		{in: "gain=1", suffix: "_g_1"},
		{in: "gain=1.5:enable_x=true", suffix: "_x_g_1.5"},
		{in: "width=1920:debug=true", suffix: "_w_1920"},
		{in: "gain=100", suffix: ""},
		{in: "eotf=pq", suffix: ""},
		{in: "gain=0.5", err: `feature demo: option gain="0.5": outside 1..100`},
		{in: "gain=x", err: `feature demo: option gain="x": want a number`},
		{in: "width=1.5", err: `feature demo: option width="1.5": want an integer`},
		{in: "enable_x=1", err: `feature demo: option enable_x="1": want true or false`},
		{in: "nope=1", err: `feature demo: unknown option "nope" (have enable_x, gain, width, eotf, debug)`},
		{in: "gain", err: `feature demo: option "gain": want name=value`},
	} {
		s, err := testKind.Parse(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("Parse(%q): error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := s.Suffix(); got != tc.suffix {
			t.Errorf("Parse(%q).Suffix() = %q, want %q", tc.in, got, tc.suffix)
		}
	}
	s, _ := testKind.Parse("eotf=pq:width=7")
	if s.String("eotf") != "pq" || s.Int("width") != 7 || s.Float("gain") != 100 || s.Bool("enable_x") {
		t.Errorf("values: %q %d %g %v", s.String("eotf"), s.Int("width"), s.Float("gain"), s.Bool("enable_x"))
	}
	d := testKind.Defaults()
	if d.Key() == s.Key() {
		t.Error("different settings share a key")
	}
}
