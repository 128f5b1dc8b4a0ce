package analytics

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// NoTime marks an unknown running time.
const NoTime time.Duration = -1

// DefaultHistoryFrames is how many per-frame scores the history keeps by
// default: 24 hours at 60 fps, 41.5 MB at most (8 bytes a frame).
const DefaultHistoryFrames = 24 * 3600 * 60

// maxIndex is the largest frame index the history can store (int32).
const maxIndex = math.MaxInt32

// Config configures a Monitor. The zero value turns everything off except
// the history (DefaultHistoryFrames).
type Config struct {
	// WindowFrames makes a window over the last N scored frames; 0 = off.
	WindowFrames int
	// WindowDuration makes windows over D of running time; 0 = off.
	// Exclusive with WindowFrames.
	WindowDuration time.Duration
	// WindowStep emits a window record every S scored frames in frames
	// mode (0 = WindowFrames: tumbling windows).
	WindowStep int
	// Percentiles, each in [0,100], pooled over the run and per window;
	// empty = none.
	Percentiles []float64
	// AlertThreshold is a VMAF score: a frame scoring below it is low.
	// 0 = alerts off.
	AlertThreshold float64
	// AlertFrames is how many consecutive low scored frames make a drop
	// (0 = 1).
	AlertFrames int
	// HistoryFrames bounds the per-frame scores kept (8 bytes a frame);
	// 0 = DefaultHistoryFrames. The oldest are dropped beyond it.
	HistoryFrames int
}

// Validate reports the first thing wrong with c, named as the element's
// properties and vmaf-score's flags name it.
func (c Config) Validate() error {
	switch {
	case c.WindowFrames < 0:
		return fmt.Errorf("analytics: window-frames %d is negative", c.WindowFrames)
	case c.WindowDuration < 0:
		return fmt.Errorf("analytics: window-duration %v is negative", c.WindowDuration)
	case c.WindowFrames > 0 && c.WindowDuration > 0:
		return fmt.Errorf("analytics: window-frames and window-duration are exclusive")
	case c.WindowStep < 0:
		return fmt.Errorf("analytics: window-step %d is negative", c.WindowStep)
	case c.WindowStep > 0 && c.WindowFrames == 0:
		return fmt.Errorf("analytics: window-step %d needs window-frames", c.WindowStep)
	case c.WindowFrames > maxIndex:
		return fmt.Errorf("analytics: window-frames %d is too large (at most %d)", c.WindowFrames, maxIndex)
	case math.IsNaN(c.AlertThreshold) || c.AlertThreshold < 0 || c.AlertThreshold > 100:
		return fmt.Errorf("analytics: alert-threshold %v is out of [0,100] (0 = off)", c.AlertThreshold)
	case c.AlertFrames < 0:
		return fmt.Errorf("analytics: alert-frames %d is negative", c.AlertFrames)
	case c.HistoryFrames < 0:
		return fmt.Errorf("analytics: history-frames %d is negative", c.HistoryFrames)
	}
	for _, p := range c.Percentiles {
		if err := checkPercentile(p); err != nil {
			return err
		}
	}
	return nil
}

func checkPercentile(p float64) error {
	if math.IsNaN(p) || p < 0 || p > 100 {
		return fmt.Errorf("analytics: percentile %v is out of [0,100]", p)
	}
	return nil
}

// ParsePercentiles reads a list such as "1,5,10,50" (spaces allowed): the
// result is sorted and without duplicates; an empty string gives nil.
func ParsePercentiles(s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []float64
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("analytics: empty entry in percentiles %q", s)
		}
		p, err := strconv.ParseFloat(part, 64)
		if err != nil {
			return nil, fmt.Errorf("analytics: percentile %q is not a number", part)
		}
		if err := checkPercentile(p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func (c Config) alertFrames() int { return max(c.AlertFrames, 1) }

func (c Config) historyFrames() int {
	if c.HistoryFrames == 0 {
		return DefaultHistoryFrames
	}
	return c.HistoryFrames
}

// recentFrames is how many of the latest scored frames Health summarises.
func (c Config) recentFrames() int { return max(c.alertFrames(), 30) }
