package tune

import (
	"encoding/xml"
	"fmt"
	"math"
	"strings"
)

// RungName is the base name a rung's media is referred to by in the
// manifests: the packager's output for that encode.
func RungName(p LadderPoint) string {
	return fmt.Sprintf("%s_crf%s", p.Resolution, strings.ReplaceAll(formatCRF(p.CRF), ".", "_"))
}

// HLSMaster is the rungs' HLS master playlist: one variant stream per
// rung, BANDWIDTH its peak bitrate over a second, AVERAGE-BANDWIDTH its
// average, both from the encode's size and duration; CODECS read from
// the encode's headers. Each URI names the rung's media playlist.
func HLSMaster(l *LadderResult) (string, error) {
	var b strings.Builder
	b.WriteString("#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-INDEPENDENT-SEGMENTS\n")
	fps, err := parseRate(l.FrameRate)
	if err != nil {
		return "", err
	}
	// Highest first, as players try the first variant first.
	for i := len(l.Rungs) - 1; i >= 0; i-- {
		p := l.Rungs[i]
		if p.Codec == "" {
			return "", fmt.Errorf("rung %s has no codec string", RungName(p))
		}
		fmt.Fprintf(&b, "#EXT-X-STREAM-INF:BANDWIDTH=%d,AVERAGE-BANDWIDTH=%d,CODECS=\"%s\",RESOLUTION=%dx%d,FRAME-RATE=%.3f\n%s.m3u8\n",
			bps(max(p.PeakKbps, p.BitrateKbps)), bps(p.BitrateKbps), p.Codec, p.Width, p.Height, fps, RungName(p))
	}
	return b.String(), nil
}

func bps(kbps float64) int64 { return int64(math.Ceil(kbps * 1000)) }

func parseRate(r string) (float64, error) {
	var num, den int
	if _, err := fmt.Sscanf(r, "%d/%d", &num, &den); err != nil || num <= 0 || den <= 0 {
		return 0, fmt.Errorf("frame rate %q", r)
	}
	return float64(num) / float64(den), nil
}

// The MPD's elements, as DASH (ISO/IEC 23009-1) names them.
type mpd struct {
	XMLName                   xml.Name `xml:"urn:mpeg:dash:schema:mpd:2011 MPD"`
	Profiles                  string   `xml:"profiles,attr"`
	Type                      string   `xml:"type,attr"`
	MediaPresentationDuration string   `xml:"mediaPresentationDuration,attr"`
	MinBufferTime             string   `xml:"minBufferTime,attr"`
	Period                    mpdPeriod
}

type mpdPeriod struct {
	XMLName       xml.Name `xml:"Period"`
	ID            string   `xml:"id,attr"`
	AdaptationSet mpdAdaptationSet
}

type mpdAdaptationSet struct {
	XMLName          xml.Name `xml:"AdaptationSet"`
	ContentType      string   `xml:"contentType,attr"`
	MimeType         string   `xml:"mimeType,attr"`
	SegmentAlignment bool     `xml:"segmentAlignment,attr"`
	StartWithSAP     int      `xml:"startWithSAP,attr"`
	FrameRate        string   `xml:"frameRate,attr"`
	MaxWidth         int      `xml:"maxWidth,attr"`
	MaxHeight        int      `xml:"maxHeight,attr"`
	Representations  []mpdRepresentation
}

type mpdRepresentation struct {
	XMLName   xml.Name `xml:"Representation"`
	ID        string   `xml:"id,attr"`
	Bandwidth int64    `xml:"bandwidth,attr"`
	Width     int      `xml:"width,attr"`
	Height    int      `xml:"height,attr"`
	Codecs    string   `xml:"codecs,attr"`
	BaseURL   string   `xml:"BaseURL"`
}

// DASHManifest is the rungs' DASH MPD (on-demand profile): one
// Representation per rung, bandwidth its peak bitrate over a second,
// codecs read from the encode's headers, BaseURL the rung's media file.
func DASHManifest(l *LadderResult) (string, error) {
	m := mpd{Profiles: "urn:mpeg:dash:profile:isoff-on-demand:2011", Type: "static",
		MediaPresentationDuration: fmt.Sprintf("PT%.3fS", l.Duration), MinBufferTime: "PT2S"}
	m.Period.ID = "0"
	as := &m.Period.AdaptationSet
	as.ContentType, as.MimeType, as.SegmentAlignment, as.StartWithSAP, as.FrameRate = "video", "video/mp4", true, 1, l.FrameRate
	for _, p := range l.Rungs {
		if p.Codec == "" {
			return "", fmt.Errorf("rung %s has no codec string", RungName(p))
		}
		as.MaxWidth, as.MaxHeight = max(as.MaxWidth, p.Width), max(as.MaxHeight, p.Height)
		as.Representations = append(as.Representations, mpdRepresentation{ID: RungName(p),
			Bandwidth: bps(max(p.PeakKbps, p.BitrateKbps)), Width: p.Width, Height: p.Height, Codecs: p.Codec, BaseURL: RungName(p) + ".mp4"})
	}
	b, err := xml.MarshalIndent(m, "", "  ")
	if err != nil {
		return "", err
	}
	return xml.Header + string(b) + "\n", nil
}
