package main

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vmafsink/vmafsink/tune"
)

type hlsVariant struct {
	attrs map[string]string
	uri   string
}

// parseHLSMaster reads a master playlist's variant streams back.
func parseHLSMaster(t *testing.T, text string) []hlsVariant {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(text))
	if !sc.Scan() || sc.Text() != "#EXTM3U" {
		t.Fatalf("playlist does not start with #EXTM3U:\n%s", text)
	}
	var out []hlsVariant
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, "#EXT-X-STREAM-INF:")
		if !ok {
			continue
		}
		v := hlsVariant{attrs: map[string]string{}}
		// Attribute lists: KEY=VALUE, values quoted when they hold commas.
		for rest != "" {
			k, r, _ := strings.Cut(rest, "=")
			var val string
			if strings.HasPrefix(r, `"`) {
				end := strings.Index(r[1:], `"`)
				val, r = r[1:end+1], r[end+2:]
			} else {
				val, r, _ = strings.Cut(r, ",")
				r = "," + r
			}
			v.attrs[k] = val
			rest = strings.TrimPrefix(r, ",")
		}
		if !sc.Scan() || strings.HasPrefix(sc.Text(), "#") {
			t.Fatalf("variant without a URI in:\n%s", text)
		}
		v.uri = sc.Text()
		out = append(out, v)
	}
	return out
}

type parsedMPD struct {
	XMLName xml.Name `xml:"MPD"`
	Type    string   `xml:"type,attr"`
	Period  struct {
		AdaptationSet struct {
			MimeType        string `xml:"mimeType,attr"`
			Representations []struct {
				ID        string `xml:"id,attr"`
				Bandwidth int64  `xml:"bandwidth,attr"`
				Width     int    `xml:"width,attr"`
				Height    int    `xml:"height,attr"`
				Codecs    string `xml:"codecs,attr"`
				BaseURL   string `xml:"BaseURL"`
			} `xml:"Representation"`
		} `xml:"AdaptationSet"`
	} `xml:"Period"`
}

// TestLadder builds a two-resolution ladder and checks its hull, its
// rungs, and both manifests parsed back, and that a rung's CODECS is what
// ffprobe reads from the same encode made with the ffmpeg command line.
func TestLadder(t *testing.T) {
	ref := clips.Y4M(t, "flower_576x324_ref.y4m")
	dir := t.TempDir()
	hls, dash := filepath.Join(dir, "master.m3u8"), filepath.Join(dir, "ladder.mpd")
	code, out, errOut := runTune(t, "ladder", "-i", ref, "--encoder", "libx264", "--preset", "veryfast",
		"--resolutions", "576x324,384x216", "--crfs", "20,26,32,38", "--rungs", "3", "--json", "-q", "--no-cache",
		"--hls", hls, "--dash", dash)
	if code != exitOK {
		t.Fatalf("ladder: exit %d: %s", code, errOut)
	}
	var l tune.LadderResult
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Points) != 8 || l.Encodes != 8 || l.Downscale != "lanczos" || l.Upscale != "bicubic" || l.Duration != 2 {
		t.Fatalf("ladder %+v", l)
	}
	for i := 1; i < len(l.Hull); i++ {
		if l.Hull[i].BitrateKbps <= l.Hull[i-1].BitrateKbps || l.Hull[i].VMAF <= l.Hull[i-1].VMAF {
			t.Errorf("hull not rising: %+v", l.Hull)
		}
	}
	onHull := map[string]bool{}
	for _, h := range l.Hull {
		onHull[tune.RungName(h)] = true
	}
	if len(l.Rungs) != min(3, len(l.Hull)) {
		t.Errorf("%d rungs from a hull of %d", len(l.Rungs), len(l.Hull))
	}
	for _, r := range l.Rungs {
		if !onHull[tune.RungName(r)] {
			t.Errorf("rung %s is not on the hull", tune.RungName(r))
		}
	}
	// The hull has the highest-scoring encode at its top.
	best := l.Points[0]
	for _, p := range l.Points {
		if p.VMAF > best.VMAF {
			best = p
		}
	}
	if top := l.Hull[len(l.Hull)-1]; top.VMAF != best.VMAF {
		t.Errorf("hull tops at %.3f, the best encode scores %.3f", top.VMAF, best.VMAF)
	}

	data, err := os.ReadFile(hls)
	if err != nil || string(data) != l.HLS {
		t.Fatalf("HLS file: %v", err)
	}
	variants := parseHLSMaster(t, l.HLS)
	if len(variants) != len(l.Rungs) {
		t.Fatalf("%d variants for %d rungs", len(variants), len(l.Rungs))
	}
	byName := map[string]tune.LadderPoint{}
	for _, r := range l.Rungs {
		byName[tune.RungName(r)] = r
	}
	for _, v := range variants {
		r, ok := byName[strings.TrimSuffix(v.uri, ".m3u8")]
		if !ok {
			t.Fatalf("variant %s names no rung", v.uri)
		}
		bw, _ := strconv.ParseInt(v.attrs["BANDWIDTH"], 10, 64)
		avg, _ := strconv.ParseInt(v.attrs["AVERAGE-BANDWIDTH"], 10, 64)
		if avg != int64(math.Ceil(r.BitrateKbps*1000)) || bw < avg || v.attrs["CODECS"] != r.Codec ||
			v.attrs["RESOLUTION"] != r.Resolution {
			t.Errorf("variant %v for rung %+v", v.attrs, r)
		}
	}

	var m parsedMPD
	if data, err = os.ReadFile(dash); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(data, &m); err != nil {
		t.Fatalf("MPD: %v\n%s", err, data)
	}
	reps := m.Period.AdaptationSet.Representations
	if m.Type != "static" || m.Period.AdaptationSet.MimeType != "video/mp4" || len(reps) != len(l.Rungs) {
		t.Fatalf("MPD %+v", m)
	}
	for i, rep := range reps {
		r := l.Rungs[i]
		if rep.Codecs != r.Codec || rep.Width != r.Width || rep.Height != r.Height || rep.BaseURL != tune.RungName(r)+".mp4" ||
			rep.Bandwidth < int64(math.Ceil(r.BitrateKbps*1000)) {
			t.Errorf("representation %+v for rung %+v", rep, r)
		}
	}

	// The top rung encoded with ffmpeg from its arguments: ffprobe's
	// profile and level are the CODECS string's.
	top := l.Rungs[len(l.Rungs)-1]
	enc := filepath.Join(dir, "top.mp4")
	args := append(append([]string{"-v", "error", "-y", "-i", ref}, top.FFmpegArgs...), enc)
	if b, err := exec.Command("ffmpeg", args...).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg %v: %v\n%s", args, err, b)
	}
	probe, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
		"stream=profile,level,width,height", "-of", "default=nw=1", enc).Output()
	if err != nil {
		t.Fatal(err)
	}
	var profile string
	var level, w, h int
	for _, line := range strings.Split(strings.TrimSpace(string(probe)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		switch k {
		case "profile":
			profile = v
		case "level":
			level, _ = strconv.Atoi(v)
		case "width":
			w, _ = strconv.Atoi(v)
		case "height":
			h, _ = strconv.Atoi(v)
		}
	}
	profiles := map[string]int{"High": 100, "Main": 77, "Baseline": 66, "Constrained Baseline": 66}
	if want := fmt.Sprintf("avc1.%02X", profiles[profile]); !strings.HasPrefix(top.Codec, want) ||
		!strings.HasSuffix(top.Codec, fmt.Sprintf("%02X", level)) || w != top.Width || h != top.Height {
		t.Errorf("top rung %s %dx%d, ffprobe reads profile %s level %d %dx%d", top.Codec, top.Width, top.Height, profile, level, w, h)
	}
}
