package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/vmafsink/vmafsink/internal/version"
	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

// partSectionName is the key (JSON) or element (XML) of a part's own
// section, after libvmaf's document.
const partSectionName = "vmafsink_shard"

// partVersion is the version of the section's layout.
const partVersion = 1

// partSection is what vmaf-score merge needs of a part. It is JSON; in an
// XML document it is the text of <vmafsink_shard>, in a CDATA block.
type partSection struct {
	Version int     `json:"version"`
	Run     partRun `json:"run"`
	// Shard is the option that chose the part ("--shard 1/4").
	Shard string `json:"shard"`
	// First and End are the part's frames, [First, End) in the run's
	// numbering; EOS says the run ends at End.
	First int  `json:"first"`
	End   int  `json:"end"`
	EOS   bool `json:"eos"`
	// Read are the frames read, [Read[0], Read[1]): the part's and those
	// around it that its edges depend on.
	Read [2]int `json:"read"`
	// Decoded are the frames each input's decoder produced for the part,
	// those dropped before Read[0] after seeking to a keyframe included;
	// -1 for an input read without decoding (.y4m, raw).
	Decoded [2]int `json:"decoded"`
	// Seconds is the part's scoring time, for the merged processing rate.
	Seconds float64 `json:"seconds"`
	// EndTime is the running time at the end of the part's last frame, in
	// nanoseconds; analytics.NoTime when the inputs give none.
	EndTime    int64                 `json:"end_time_ns"`
	Frames     partFrames            `json:"frames"`
	Aggregates []vmaf.AggregateState `json:"aggregate_state"`
}

// partRun identifies the run the part belongs to: every part of one run
// has the same.
type partRun struct {
	Tool     string       `json:"tool"` // vmaf-score's version
	Args     []string     `json:"args"` // the options that make the run (runArgs)
	Inputs   [2]partInput `json:"inputs"`
	Width    int          `json:"width"`
	Height   int          `json:"height"`
	BitDepth int          `json:"bitdepth"`
	Chroma   string       `json:"chroma"`
}

type partInput struct {
	Path string `json:"path"`
	Size int64  `json:"size"` // bytes; -1 when not a regular file
}

// partFrames are the part's results, exactly: for frame k, number
// Index[k], running time PTS[k] (ns; analytics.NoTime when unknown) and
// the values of the metrics Layouts[Layout[k]] names, in that order. The
// arrays are little-endian int64 (Index, PTS) and float64 (Values) in
// base64; Layout is a JSON array.
type partFrames struct {
	Layouts [][]string `json:"layouts"`
	Layout  []int      `json:"layout"`
	Index   string     `json:"index"`
	PTS     string     `json:"pts"`
	Values  string     `json:"values"`
}

func toolVersion() string { return version.String() }

func (pr *partRecord) encode() partFrames {
	ints := func(xs []int64) string {
		b := make([]byte, 8*len(xs))
		for i, x := range xs {
			binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	vb := make([]byte, 8*len(pr.values))
	for i, x := range pr.values {
		binary.LittleEndian.PutUint64(vb[8*i:], math.Float64bits(x))
	}
	layouts := pr.layouts
	if layouts == nil {
		layouts = [][]string{}
	}
	layout := pr.layout
	if layout == nil {
		layout = []int{}
	}
	return partFrames{Layouts: layouts, Layout: layout, Index: ints(pr.index), PTS: ints(pr.pts),
		Values: base64.StdEncoding.EncodeToString(vb)}
}

func (sec *partSection) marshal() ([]byte, error) {
	return json.Marshal(sec)
}

// count is the number of frames, without decoding them.
func (pf *partFrames) count() int { return len(pf.Layout) }

// partFrame is one frame of a part as decoded.
type partFrame struct {
	index   int
	pts     int64
	metrics []vmaf.Metric
}

// decodedFrames are a part's frames as checked arrays; frame builds one
// frame from them at a time.
type decodedFrames struct {
	layouts    [][]string
	layout     []int
	index, pts []uint64
	vals       []uint64
	off        int // of the next frame's values
	next       int // the next frame
	metrics    []vmaf.Metric
}

// decode checks the frames' arrays against each other.
func (pf *partFrames) decode() (*decodedFrames, error) {
	words := func(s, what string) ([]uint64, error) {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(b)%8 != 0 {
			return nil, fmt.Errorf("%s: not base64 of 8-byte values", what)
		}
		w := make([]uint64, len(b)/8)
		for i := range w {
			w[i] = binary.LittleEndian.Uint64(b[8*i:])
		}
		return w, nil
	}
	d := &decodedFrames{layouts: pf.Layouts, layout: pf.Layout}
	var err error
	if d.index, err = words(pf.Index, "index"); err != nil {
		return nil, err
	}
	if d.pts, err = words(pf.PTS, "pts"); err != nil {
		return nil, err
	}
	if d.vals, err = words(pf.Values, "values"); err != nil {
		return nil, err
	}
	if len(d.index) != len(pf.Layout) || len(d.pts) != len(pf.Layout) {
		return nil, errors.New("frames: index, pts and layout differ in length")
	}
	n := 0
	for k, li := range pf.Layout {
		if li < 0 || li >= len(pf.Layouts) {
			return nil, fmt.Errorf("frames: frame %d has no layout %d", k, li)
		}
		n += len(pf.Layouts[li])
		if k > 0 && int64(d.index[k]) <= int64(d.index[k-1]) {
			return nil, fmt.Errorf("frames: frame numbers out of order at %d", int64(d.index[k]))
		}
	}
	if n != len(d.vals) {
		return nil, fmt.Errorf("frames: %d values, the layouts name %d", len(d.vals), n)
	}
	return d, nil
}

func (d *decodedFrames) len() int { return len(d.layout) }

// nextFrame is the next frame; its metrics are reused by the next call.
func (d *decodedFrames) nextFrame() partFrame {
	k := d.next
	d.next++
	names := d.layouts[d.layout[k]]
	d.metrics = d.metrics[:0]
	for i, n := range names {
		d.metrics = append(d.metrics, vmaf.Metric{Name: n, Value: math.Float64frombits(d.vals[d.off+i])})
	}
	d.off += len(names)
	return partFrame{index: int(int64(d.index[k])), pts: int64(d.pts[k]), metrics: d.metrics}
}

// readPart reads a part's section from its results file, XML or JSON,
// and the file's format. It streams through the file, keeping only the
// section: a feature film's part holds hundreds of MB of frames.
func readPart(path string) (*partSection, report.Format, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	first, err := firstByte(br)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: not a results document: %w", path, err)
	}
	var raw []byte
	format := report.JSON
	if first == '<' {
		format = report.XML
		raw, err = xmlSection(br)
	} else {
		raw, err = jsonSection(br)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("%s: not a results document (XML or JSON): %w", path, err)
	}
	if raw == nil {
		return nil, 0, fmt.Errorf("%s: no %s section: not a part written by vmaf-score --shard/--frames, or one that did not finish", path, partSectionName)
	}
	var sec partSection
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sec); err != nil {
		return nil, 0, fmt.Errorf("%s: %s section: %w", path, partSectionName, err)
	}
	if sec.Version != partVersion {
		return nil, 0, fmt.Errorf("%s: %s section version %d; this vmaf-score reads version %d", path, partSectionName, sec.Version, partVersion)
	}
	return &sec, format, nil
}

// firstByte is the first byte of r that is not white space, left unread.
func firstByte(r *bufio.Reader) (byte, error) {
	for {
		b, err := r.ReadByte()
		if err != nil {
			return 0, err
		}
		if b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			return b, r.UnreadByte()
		}
	}
}

// xmlSection is the text of the document's <vmafsink_shard>; nil without one.
func xmlSection(r io.Reader) ([]byte, error) {
	dec := xml.NewDecoder(r)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == partSectionName {
			var text string
			if err := dec.DecodeElement(&text, &se); err != nil {
				return nil, err
			}
			return []byte(text), nil
		}
	}
}

// jsonSection is the value of the document's top-level key
// vmafsink_shard; nil without one. The other values are skipped token by
// token.
func jsonSection(r io.Reader) ([]byte, error) {
	dec := json.NewDecoder(r)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if tok == partSectionName {
			var raw json.RawMessage
			err := dec.Decode(&raw)
			return raw, err
		}
		if err := skipJSONValue(dec); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// skipJSONValue reads past the next value without keeping it.
func skipJSONValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
