package floatadm

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

func parse(t *testing.T, opts string) feature.Settings {
	t.Helper()
	s, err := Kind.Parse(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// extract runs one frame pair through a fresh instance.
func extract(t *testing.T, f feature.Format, s feature.Settings, ref, dist *feature.Frame) map[string]float64 {
	t.Helper()
	x, err := Kind.New(f, s)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	names := Kind.Outputs(f, s)
	out := make([]float64, len(names))
	if err := x.Extract(0, ref, dist, out); err != nil {
		t.Fatal(err)
	}
	m := map[string]float64{}
	for i, n := range names {
		m[n] = out[i]
	}
	return m
}

// referenceDivision is the fingerprint of divRow's quotients on the
// machine (AMD EPYC, x86-64) where TestReference's values were made.
const referenceDivision = 0x24a9eb7d12e7155

// divisionFingerprint hashes divRow's quotients of 1 by numbers spread
// over every mantissa and a few exponents.
func divisionFingerprint() uint64 {
	const n = 1 << 16
	one, d, q := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range d {
		one[i] = 1
		d[i] = math.Float32frombits(0x3c000000 + uint32(i)*2654435761%0x07000000)
	}
	divRow(q, one, d)
	h := fnv.New64a()
	for _, v := range q {
		binary.Write(h, binary.LittleEndian, v)
	}
	return h.Sum64()
}

// TestReference checks pictures of odd sizes, every depth and chroma
// layout, and non-default options, against the values libvmaf 3.2.0's
// float ADM gives for the same pictures (the pattern's frames written
// out as raw YUV). Where the processor's reciprocal estimate is the one
// they were made with, the values must be libvmaf's to the last bit;
// elsewhere (other processors, other architectures) only its last bits
// may differ.
func TestReference(t *testing.T) {
	tol := 1e-6
	if fp := divisionFingerprint(); fp == referenceDivision {
		tol = 0
	} else {
		t.Logf("division fingerprint %#x: checking to %g", fp, tol)
	}
	type scale struct{ num, den float64 }
	for _, tc := range []struct {
		f        feature.Format
		opts     string
		adm, aim float64
		scales   [4]scale
	}{
		{feature.Format{Width: 33, Height: 19, BitDepth: 8, Chroma: feature.Chroma420}, "",
			0.98880242730388179, 0.01922821345209947,
			[4]scale{{5.05970335, 5.28720045}, {5.73936701, 6.27764225}, {17.4834385, 17.8230877}, {59.1624374, 59.0472755}}},
		{feature.Format{Width: 33, Height: 19, BitDepth: 8, Chroma: feature.Chroma420}, "adm_enhn_gain_limit=1",
			0.9789544998551698, 0.02008277026716444,
			[4]scale{{5.05970335, 5.28720045}, {5.66623116, 6.27764225}, {17.4073582, 17.8230877}, {58.4407501, 59.0472755}}},
		{feature.Format{Width: 101, Height: 57, BitDepth: 10, Chroma: feature.Chroma422}, "",
			0.99204845616413773, 0.019776941538103301,
			[4]scale{{10.1158085, 10.0920372}, {9.02530479, 9.99684811}, {32.9781265, 33.2856712}, {107.328987, 107.351692}}},
		{feature.Format{Width: 101, Height: 57, BitDepth: 10, Chroma: feature.Chroma422},
			"adm_csf_mode=1:adm_p_norm=2.5:adm_norm_view_dist=5:adm_ref_display_height=720:adm_csf_scale=2:adm_csf_diag_scale=0.5",
			0.9955755264236158, 0.0047363377232569918,
			[4]scale{{65.05896, 80.7646255}, {975.482422, 1371.05823}, {21616.25, 21849.0293}, {135127.969, 135185.125}}},
		{feature.Format{Width: 47, Height: 65, BitDepth: 12, Chroma: feature.Chroma444}, "",
			0.99012528365999664, 0.026645353337046804,
			[4]scale{{8.37603569, 8.4297657}, {8.28709602, 8.84299183}, {23.1584778, 23.5054302}, {63.9393959, 64.0176468}}},
		{feature.Format{Width: 47, Height: 65, BitDepth: 12, Chroma: feature.Chroma444},
			"adm_enhn_gain_limit=1.5:adm_csf_mode=2:adm_skip_aim_scale=1:adm_skip_scale0=true",
			0.99343057762073328, 0,
			[4]scale{{0, 1.00000001e-10}, {20.1326714, 23.6109715}, {305.295258, 310.748413}, {1350.74231, 1352.89514}}},
		{feature.Format{Width: 17, Height: 18, BitDepth: 16, Chroma: feature.Chroma400}, "",
			0.98880745044247365, 0.017263633135376273,
			[4]scale{{4.43483019, 4.53448105}, {5.33916569, 5.90237856}, {16.0539627, 16.8105621}, {46.6931381, 46.0945587}}},
		{feature.Format{Width: 17, Height: 18, BitDepth: 16, Chroma: feature.Chroma400}, "adm_noise_weight=0:adm_bypass_cm=1",
			0.99776258108663018, 0.045597573727958078,
			[4]scale{{0.432655334, 0.445959717}, {2.86858416, 3.13935447}, {14.3894882, 14.845006}, {45.1931381, 44.5945587}}},
	} {
		t.Run(fmt.Sprintf("%dx%d_%dbit_%s", tc.f.Width, tc.f.Height, tc.f.BitDepth, tc.opts), func(t *testing.T) {
			s := parse(t, tc.opts)
			s, _ = s.With("debug", "true")
			got := extract(t, tc.f, s, pattern(tc.f, 0), pattern(tc.f, 3))
			suffix := s.Suffix()
			check := func(name string, want float64) {
				t.Helper()
				g := got[name+suffix]
				if d := math.Abs(g - want); d > tol*math.Max(1, math.Abs(want)) {
					t.Errorf("%v %s: got %.17g, libvmaf %.17g", tc.f, name+suffix, g, want)
				}
			}
			check("adm2", tc.adm)
			check("aim", tc.aim)
			for i, sc := range tc.scales {
				// libvmaf keeps each scale's sums as float32, printed
				// here to 9 digits, which round-trip.
				num, den := float64(float32(sc.num)), float64(float32(sc.den))
				n := string(rune('0' + i))
				check("adm_num_scale"+n, num)
				check("adm_den_scale"+n, den)
				check("adm_scale"+n, num/den)
			}
		})
	}
}

// TestIdentical: a picture against itself loses no detail and adds
// nothing, exactly.
func TestIdentical(t *testing.T) {
	for _, f := range []feature.Format{
		{Width: 17, Height: 17, BitDepth: 8, Chroma: feature.Chroma420},
		{Width: 64, Height: 35, BitDepth: 10, Chroma: feature.Chroma444},
	} {
		p := pattern(f, 1)
		got := extract(t, f, Kind.Defaults(), p, p)
		for _, n := range []string{"adm2", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3"} {
			if got[n] != 1 {
				t.Errorf("%v: %s = %v, want 1", f, n, got[n])
			}
		}
		if got["aim"] != 0 {
			t.Errorf("%v: aim = %v, want 0", f, got["aim"])
		}
	}
}

// TestCombinations checks adm3 and the debug values against adm2 and
// aim of the same frame.
func TestCombinations(t *testing.T) {
	f := feature.Format{Width: 40, Height: 30, BitDepth: 8, Chroma: feature.Chroma420}
	ref, dist := pattern(f, 0), pattern(f, 2)
	for _, tc := range []struct {
		opts   string
		suffix string
		adm3   func(adm, aim float64) float64
	}{
		{"debug=true", "", func(adm, aim float64) float64 { return 0.5*adm + 0.5*(1-aim) }},
		{"debug=true:adm_dlm_weight=0.8", "_dlmw_0.8", func(adm, aim float64) float64 { return adm*0.8 + (1-aim)*(1-0.8) }},
		{"debug=true:adm_adm3_apply_hm=true", "_aah", func(adm, aim float64) float64 { return 2 * adm * aim / (adm + aim) }},
		{"debug=true:adm_adm3_apply_hm=true:adm_min_val=0.9", "_aah_min_0.9", func(adm, aim float64) float64 { return 0.9 }},
	} {
		got := extract(t, f, parse(t, tc.opts), ref, dist)
		adm, aim := got["adm2"+tc.suffix], got["aim"+tc.suffix]
		if want := tc.adm3(adm, aim); got["adm3"+tc.suffix] != want {
			t.Errorf("%s: adm3 %v, want %v", tc.opts, got["adm3"+tc.suffix], want)
		}
		if got["adm"] != adm || got["adm_num"+tc.suffix]/got["adm_den"+tc.suffix] != adm {
			t.Errorf("%s: adm %v, num/den %v, adm2 %v", tc.opts, got["adm"], got["adm_num"+tc.suffix]/got["adm_den"+tc.suffix], adm)
		}
		var num, den float64
		for i := 0; i < 4; i++ {
			n := string(rune('0' + i))
			num += got["adm_num_scale"+n+tc.suffix]
			den += got["adm_den_scale"+n+tc.suffix]
		}
		if num != got["adm_num"+tc.suffix] || den != got["adm_den"+tc.suffix] {
			t.Errorf("%s: scales sum to %v/%v, totals %v/%v", tc.opts, num, den, got["adm_num"+tc.suffix], got["adm_den"+tc.suffix])
		}
	}
}

// TestOutputs checks the names against those libvmaf 3.2.0 reports.
func TestOutputs(t *testing.T) {
	f := feature.Format{Width: 64, Height: 64, BitDepth: 8}
	for _, tc := range []struct{ opts, want string }{
		{"", "adm2 aim adm3 adm_scale0 adm_scale1 adm_scale2 adm_scale3"},
		{"adm_enhn_gain_limit=1", "adm2_egl_1 aim_egl_1 adm3_egl_1 adm_scale0_egl_1 adm_scale1_egl_1 adm_scale2_egl_1 adm_scale3_egl_1"},
		{"adm_enhn_gain_limit=100:adm_norm_view_dist=3", "adm2 aim adm3 adm_scale0 adm_scale1 adm_scale2 adm_scale3"},
		{"debug=true:adm_enhn_gain_limit=1.5:adm_adm3_apply_hm=true:adm_min_val=0.3",
			"adm2_aah_egl_1.5_min_0.3 aim_aah_egl_1.5_min_0.3 adm3_aah_egl_1.5_min_0.3 " +
				"adm_scale0_aah_egl_1.5_min_0.3 adm_scale1_aah_egl_1.5_min_0.3 adm_scale2_aah_egl_1.5_min_0.3 adm_scale3_aah_egl_1.5_min_0.3 " +
				"adm adm_num_aah_egl_1.5_min_0.3 adm_den_aah_egl_1.5_min_0.3 " +
				"adm_num_scale0_aah_egl_1.5_min_0.3 adm_den_scale0_aah_egl_1.5_min_0.3 adm_num_scale1_aah_egl_1.5_min_0.3 adm_den_scale1_aah_egl_1.5_min_0.3 " +
				"adm_num_scale2_aah_egl_1.5_min_0.3 adm_den_scale2_aah_egl_1.5_min_0.3 adm_num_scale3_aah_egl_1.5_min_0.3 adm_den_scale3_aah_egl_1.5_min_0.3"},
		{"adm_dlm_weight=0.25:adm_csf_mode=2:adm_skip_scale0=true:adm_skip_aim_scale=1:adm_p_norm=2",
			"adm2_csf_2_dlmw_0.25_apn_2_sasc_1_ssz aim_csf_2_dlmw_0.25_apn_2_sasc_1_ssz adm3_csf_2_dlmw_0.25_apn_2_sasc_1_ssz " +
				"adm_scale0_csf_2_dlmw_0.25_apn_2_sasc_1_ssz adm_scale1_csf_2_dlmw_0.25_apn_2_sasc_1_ssz " +
				"adm_scale2_csf_2_dlmw_0.25_apn_2_sasc_1_ssz adm_scale3_csf_2_dlmw_0.25_apn_2_sasc_1_ssz"},
	} {
		got := strings.Join(Kind.Outputs(f, parse(t, tc.opts)), " ")
		if got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.opts, got, tc.want)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		f    feature.Format
		want string
	}{
		{feature.Format{Width: 16, Height: 100, BitDepth: 8}, "smaller than the 17x17"},
		{feature.Format{Width: 100, Height: 1, BitDepth: 8}, "smaller than the 17x17"},
		{feature.Format{Width: 1, Height: 1, BitDepth: 10, Chroma: feature.Chroma444}, "smaller than the 17x17"},
		{feature.Format{Width: 64, Height: 64, BitDepth: 9}, "bit depth 9"},
	} {
		_, err := Kind.New(tc.f, Kind.Defaults())
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "feature float_adm: ") {
			t.Errorf("%v: error %v, want one saying %q", tc.f, err, tc.want)
		}
	}
	for _, opts := range []string{"adm_enhn_gain_limit=0.5", "adm_csf_mode=10", "adm_skip_aim_scale=-1", "adm_ref_display_height=0", "adm_p_norm=x"} {
		if _, err := Kind.Parse(opts); err == nil {
			t.Errorf("%s: accepted", opts)
		}
	}
	f := feature.Format{Width: 32, Height: 32, BitDepth: 8}
	x, err := Kind.New(f, Kind.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	g := feature.Format{Width: 33, Height: 32, BitDepth: 8}
	out := make([]float64, 7)
	if err := x.Extract(0, pattern(g, 0), pattern(g, 1), out); err == nil {
		t.Error("a frame of another size was accepted")
	}
}

// TestNoAllocs: once made, an instance allocates nothing per frame.
func TestNoAllocs(t *testing.T) {
	f := feature.Format{Width: 99, Height: 41, BitDepth: 10, Chroma: feature.Chroma420}
	s := parse(t, "adm_p_norm=2.5")
	x, err := Kind.New(f, s)
	if err != nil {
		t.Fatal(err)
	}
	ref, dist := pattern(f, 0), pattern(f, 1)
	out := make([]float64, len(Kind.Outputs(f, s)))
	if n := testing.AllocsPerRun(5, func() { _ = x.Extract(0, ref, dist, out) }); n != 0 {
		t.Errorf("%v allocations per frame", n)
	}
	if !slices.Contains(Kind.Outputs(f, s), "adm2_apn_2.5") {
		t.Error("no adm2_apn_2.5")
	}
}

// TestThresholds checks the masking thresholds against thresholdsGo, the
// portable code, bit for bit, for runs of every length up to 13 (the
// amd64 kernel takes four columns at a time).
func TestThresholds(t *testing.T) {
	seed := uint32(1)
	rnd := func() float32 {
		seed = seed*1664525 + 1013904223
		return float32(int32(seed)>>8) / (1 << 20)
	}
	for n := 0; n <= 13; n++ {
		var rows thresholdRows
		for b := range rows {
			for r := 0; r < 3; r++ {
				rows[b][r] = make([]float32, n+2)
				for i := range rows[b][r] {
					rows[b][r][i] = abs32(rnd()) / 30
				}
			}
			rows[b][3] = make([]float32, n)
			for i := range rows[b][3] {
				rows[b][3][i] = rnd()
			}
		}
		got, want := make([]float32, n), make([]float32, n)
		thresholds(got, &rows)
		thresholdsGo(want, &rows, 0)
		for k := range want {
			if math.Float32bits(got[k]) != math.Float32bits(want[k]) {
				t.Errorf("run of %d, column %d: %x, want %x", n, k, math.Float32bits(got[k]), math.Float32bits(want[k]))
			}
		}
	}
}

// TestVertical checks the wavelet's vertical pass against verticalGo bit
// for bit, for rows of every length up to 13.
func TestVertical(t *testing.T) {
	seed := uint32(7)
	for n := 0; n <= 13; n++ {
		var rows [4][]float32
		for r := range rows {
			rows[r] = make([]float32, n)
			for i := range rows[r] {
				seed = seed*1664525 + 1013904223
				rows[r][i] = float32(int32(seed)>>8) / (1 << 16)
			}
		}
		lo, hi := make([]float32, n), make([]float32, n)
		wantLo, wantHi := make([]float32, n), make([]float32, n)
		vertical(lo, hi, rows[0], rows[1], rows[2], rows[3])
		verticalGo(wantLo, wantHi, rows[0], rows[1], rows[2], rows[3], 0)
		for j := 0; j < n; j++ {
			if math.Float32bits(lo[j]) != math.Float32bits(wantLo[j]) || math.Float32bits(hi[j]) != math.Float32bits(wantHi[j]) {
				t.Errorf("row of %d, column %d: %v %v, want %v %v", n, j, lo[j], hi[j], wantLo[j], wantHi[j])
			}
		}
	}
}

// TestHorizontal checks the wavelet's horizontal pass against
// horizontalGo bit for bit, for rows of every length up to 30.
func TestHorizontal(t *testing.T) {
	seed := uint32(11)
	for w := 2; w <= 30; w++ {
		src := make([]float32, w)
		for i := range src {
			seed = seed*1664525 + 1013904223
			src[i] = float32(int32(seed)>>8) / (1 << 16)
		}
		ow := (w + 1) / 2
		end := min(max((w-3)/2+1, 1), ow)
		lo, hi := make([]float32, ow), make([]float32, ow)
		wantLo, wantHi := make([]float32, ow), make([]float32, ow)
		horizontal(src, lo, hi, end)
		horizontalGo(src, wantLo, wantHi, 1, end)
		for j := 0; j < ow; j++ {
			if math.Float32bits(lo[j]) != math.Float32bits(wantLo[j]) || math.Float32bits(hi[j]) != math.Float32bits(wantHi[j]) {
				t.Errorf("row of %d, output %d: %v %v, want %v %v", w, j, lo[j], hi[j], wantLo[j], wantHi[j])
			}
		}
	}
}

// TestDecouple checks the decoupling of rows against decoupleGo bit for
// bit: distorted values that are the reference scaled (the angle test
// passes, the gain limit applies) or perturbed (it fails), of both signs,
// and zeros.
func TestDecouple(t *testing.T) {
	seed := uint32(5)
	rnd := func() float32 {
		seed = seed*1664525 + 1013904223
		return float32(int32(seed)>>8) / (1 << 22)
	}
	for _, egl := range []float64{1, 1.5, 100} {
		for n := 0; n <= 13; n++ {
			var rows, want decoupleRows
			for b := 0; b < 3; b++ {
				rows.o[b], rows.t[b], rows.k[b] = make([]float32, n), make([]float32, n), make([]float32, n)
				for j := 0; j < n; j++ {
					o := rnd()
					tv := o * (rnd() + 0.8)
					switch j % 4 {
					case 1:
						tv += rnd()
					case 2:
						o = 0
					}
					rows.o[b][j], rows.t[b][j] = o, tv
				}
				den := make([]float32, n)
				for j, o := range rows.o[b] {
					den[j] = o + 1e-30
				}
				divRow(rows.k[b], rows.t[b], den)
			}
			want = rows
			for b := 0; b < 3; b++ {
				rows.r[b], rows.a[b] = make([]float32, n), make([]float32, n)
				want.r[b], want.a[b] = make([]float32, n), make([]float32, n)
			}
			decoupleRow(&rows, egl)
			decoupleGo(&want, 0, egl)
			for b := 0; b < 3; b++ {
				for j := 0; j < n; j++ {
					if math.Float32bits(rows.r[b][j]) != math.Float32bits(want.r[b][j]) || math.Float32bits(rows.a[b][j]) != math.Float32bits(want.a[b][j]) {
						t.Errorf("egl %g, row of %d, band %d, column %d: r %v a %v, want %v %v",
							egl, n, b, j, rows.r[b][j], rows.a[b][j], want.r[b][j], want.a[b][j])
					}
				}
			}
		}
	}
}
