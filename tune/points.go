package tune

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// ReadPoints reads a rate-quality curve from a file: CSV with a
// `bitrate,vmaf` header (or two unlabelled columns), or JSON — a list of
// {"bitrate": R, "vmaf": S} objects or of [R, S] pairs, or an object
// whose "points" holds either.
func ReadPoints(path string) ([]RDPoint, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pts, err := ParsePoints(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pts, nil
}

// ParsePoints is ReadPoints on the file's contents.
func ParsePoints(data []byte) ([]RDPoint, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && (trimmed[0] == '[' || trimmed[0] == '{') {
		return parseJSONPoints(trimmed)
	}
	return parseCSVPoints(trimmed)
}

func parseCSVPoints(data []byte) ([]RDPoint, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.TrimLeadingSpace = true
	r.Comment = '#'
	rateCol, metricCol := 0, 1
	var pts []RDPoint
	for line := 1; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if line == 1 && len(rec) > 0 {
			if _, err := strconv.ParseFloat(strings.TrimSpace(rec[0]), 64); err != nil {
				if rateCol, metricCol, err = csvColumns(rec); err != nil {
					return nil, err
				}
				continue
			}
		}
		if len(rec) <= rateCol || len(rec) <= metricCol {
			return nil, fmt.Errorf("line %d: want a bitrate and a score, got %d fields", line, len(rec))
		}
		rate, err := strconv.ParseFloat(strings.TrimSpace(rec[rateCol]), 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: bitrate: %w", line, err)
		}
		metric, err := strconv.ParseFloat(strings.TrimSpace(rec[metricCol]), 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: score: %w", line, err)
		}
		pts = append(pts, RDPoint{Rate: rate, Metric: metric})
	}
	return pts, nil
}

// csvColumns finds the rate and score columns of a header: a rate
// column named bitrate, bitrate_kbps or rate, and a score column named
// vmaf, score or metric.
func csvColumns(header []string) (rate, metric int, err error) {
	rate, metric = -1, -1
	for i, h := range header {
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "bitrate", "bitrate_kbps", "rate":
			rate = i
		case "vmaf", "score", "metric":
			metric = i
		}
	}
	if rate < 0 || metric < 0 {
		return 0, 0, fmt.Errorf("header %q: want a bitrate column and a vmaf column", strings.Join(header, ","))
	}
	return rate, metric, nil
}

func parseJSONPoints(data []byte) ([]RDPoint, error) {
	if data[0] == '{' {
		var doc struct {
			Points json.RawMessage `json:"points"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, err
		}
		if doc.Points == nil {
			return nil, fmt.Errorf(`JSON object without "points"`)
		}
		return parseJSONPoints(bytes.TrimSpace(doc.Points))
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	pts := make([]RDPoint, 0, len(raw))
	for i, item := range raw {
		var pair []float64
		if err := json.Unmarshal(item, &pair); err == nil {
			if len(pair) != 2 {
				return nil, fmt.Errorf("point %d: want [bitrate, score], got %d numbers", i, len(pair))
			}
			pts = append(pts, RDPoint{Rate: pair[0], Metric: pair[1]})
			continue
		}
		var obj struct {
			Bitrate     *float64 `json:"bitrate"`
			BitrateKbps *float64 `json:"bitrate_kbps"`
			VMAF        *float64 `json:"vmaf"`
			Score       *float64 `json:"score"`
		}
		if err := json.Unmarshal(item, &obj); err != nil {
			return nil, fmt.Errorf("point %d: %w", i, err)
		}
		rate, metric := obj.Bitrate, obj.VMAF
		if rate == nil {
			rate = obj.BitrateKbps
		}
		if metric == nil {
			metric = obj.Score
		}
		if rate == nil || metric == nil {
			return nil, fmt.Errorf(`point %d: want "bitrate" and "vmaf"`, i)
		}
		pts = append(pts, RDPoint{Rate: *rate, Metric: *metric})
	}
	return pts, nil
}
