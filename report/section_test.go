package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"testing"
	"time"
)

// A section comes back from XML and JSON readers as it was set, even
// when its value holds what ends a CDATA block; CSV leaves it out.
func TestWriterSection(t *testing.T) {
	raw := []byte(`{"path":"/a]]>b","n":1}`)
	for _, f := range []Format{XML, JSON, CSV} {
		var buf bytes.Buffer
		w := NewWriter(&buf, Options{Format: f, Now: fakeClock(time.Second)})
		for _, fr := range twoFrames() {
			if err := w.WriteFrame(fr); err != nil {
				t.Fatal(err)
			}
		}
		w.SetSection("own_section", raw)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		var got []byte
		switch f {
		case XML:
			var doc struct {
				Section string `xml:"own_section"`
				Frames  []struct {
					Num int `xml:"frameNum,attr"`
				} `xml:"frames>frame"`
			}
			if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
				t.Fatalf("XML: %v\n%s", err, buf.Bytes())
			}
			if len(doc.Frames) != 2 {
				t.Errorf("XML: %d frames", len(doc.Frames))
			}
			got = []byte(doc.Section)
		case JSON:
			var doc map[string]json.RawMessage
			if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
				t.Fatalf("JSON: %v\n%s", err, buf.Bytes())
			}
			got = doc["own_section"]
		case CSV:
			if bytes.Contains(buf.Bytes(), []byte("own_section")) {
				t.Errorf("CSV carries the section:\n%s", buf.Bytes())
			}
			continue
		}
		if !bytes.Equal(got, raw) {
			t.Errorf("%v: section %s, want %s", f, got, raw)
		}
	}
}
