package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
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

// partFrame is one frame of a part as decoded.
type partFrame struct {
	index   int
	pts     int64
	metrics []vmaf.Metric
}

// decode checks the frames' arrays against each other and returns them.
func (pf *partFrames) decode() ([]partFrame, error) {
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
	idx, err := words(pf.Index, "index")
	if err != nil {
		return nil, err
	}
	pts, err := words(pf.PTS, "pts")
	if err != nil {
		return nil, err
	}
	vals, err := words(pf.Values, "values")
	if err != nil {
		return nil, err
	}
	if len(idx) != len(pf.Layout) || len(pts) != len(pf.Layout) {
		return nil, errors.New("frames: index, pts and layout differ in length")
	}
	frames := make([]partFrame, len(idx))
	off := 0
	for k := range frames {
		li := pf.Layout[k]
		if li < 0 || li >= len(pf.Layouts) {
			return nil, fmt.Errorf("frames: frame %d has no layout %d", k, li)
		}
		names := pf.Layouts[li]
		if off+len(names) > len(vals) {
			return nil, errors.New("frames: fewer values than the layouts need")
		}
		ms := make([]vmaf.Metric, len(names))
		for i, n := range names {
			ms[i] = vmaf.Metric{Name: n, Value: math.Float64frombits(vals[off+i])}
		}
		off += len(names)
		frames[k] = partFrame{index: int(int64(idx[k])), pts: int64(pts[k]), metrics: ms}
		if k > 0 && frames[k].index <= frames[k-1].index {
			return nil, fmt.Errorf("frames: frame numbers out of order at %d", frames[k].index)
		}
	}
	if off != len(vals) {
		return nil, errors.New("frames: more values than the layouts name")
	}
	return frames, nil
}

// readPart reads a part's section from its results file, XML or JSON,
// and the file's format.
func readPart(path string) (*partSection, report.Format, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	var raw []byte
	format := report.JSON
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '<' {
		format = report.XML
		var doc struct {
			Section *string `xml:"vmafsink_shard"`
		}
		if err := xml.Unmarshal(data, &doc); err != nil {
			return nil, 0, fmt.Errorf("%s: not a results document: %w", path, err)
		}
		if doc.Section != nil {
			raw = []byte(*doc.Section)
		}
	} else {
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, 0, fmt.Errorf("%s: not a results document (XML or JSON): %w", path, err)
		}
		raw = doc[partSectionName]
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
