package pipeline

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// step is one event fed to a pairer in a table test: "r40" pushes a
// reference frame at running time 40 ms, "d" a distorted frame without
// timestamp, "eos:r" ends the reference stream, "flush:d" flushes the
// distorted side.
type step string

type pairLog struct {
	pairs    []string // "r40+d40"
	discards []string // "r0:nopartner"
}

func runPairer(t *testing.T, mode Pairing, maxPending int, dur time.Duration, steps []step) pairLog {
	t.Helper()
	var log pairLog
	p := newPairer(mode, maxPending)
	p.discard = func(s Side, f *Frame, why discardReason) {
		log.discards = append(log.discards, fmt.Sprintf("%s:%s", label(s, f), [...]string{"nopartner", "overflow", "flushed"}[why]))
		f.release()
	}
	for _, st := range steps {
		switch {
		case strings.HasPrefix(string(st), "eos:"):
			p.endOfStream(sideOf(st[4]))
		case strings.HasPrefix(string(st), "flush:"):
			p.flush(sideOf(st[6]))
		default:
			s := sideOf(st[0])
			tm := Untimed
			if len(st) > 1 {
				var ms int
				fmt.Sscanf(string(st[1:]), "%d", &ms)
				tm.RunningTime = time.Duration(ms) * time.Millisecond
				tm.Duration = dur
			}
			if pair, ok := p.push(s, Frame{Timing: tm}); ok {
				log.pairs = append(log.pairs, label(Ref, &pair[Ref])+"+"+label(Dist, &pair[Dist]))
			}
		}
	}
	return log
}

func sideOf(c byte) Side {
	if c == 'r' {
		return Ref
	}
	return Dist
}

func label(s Side, f *Frame) string {
	c := "r"
	if s == Dist {
		c = "d"
	}
	if f.Timing.RunningTime == NoTime {
		return c
	}
	return fmt.Sprintf("%s%d", c, f.Timing.RunningTime/time.Millisecond)
}

func TestPairer(t *testing.T) {
	const frame = 40 * time.Millisecond
	tests := []struct {
		name       string
		mode       Pairing
		maxPending int
		dur        time.Duration
		steps      []step
		pairs      string
		discards   string
	}{
		{
			name: "timestamp lockstep", mode: PairByTimestamp, maxPending: 4, dur: frame,
			steps: []step{"r0", "d0", "r40", "d40"},
			pairs: "r0+d0 r40+d40",
		},
		{
			name: "timestamp dist lags by three frames", mode: PairByTimestamp, maxPending: 4, dur: frame,
			steps: []step{"r0", "r40", "r80", "r120", "d0", "r160", "d40", "d80"},
			pairs: "r0+d0 r40+d40 r80+d80",
		},
		{
			name: "timestamp within half a frame", mode: PairByTimestamp, maxPending: 4, dur: frame,
			steps: []step{"r0", "d19", "r40", "d61", "r80"},
			pairs: "r0+d19 r80+d61", discards: "r40:nopartner",
		},
		{
			name: "timestamp dist lost a frame", mode: PairByTimestamp, maxPending: 4, dur: frame,
			steps: []step{"r0", "r40", "r80", "d0", "d80"},
			pairs: "r0+d0 r80+d80", discards: "r40:nopartner",
		},
		{
			name: "timestamp ref lost a frame", mode: PairByTimestamp, maxPending: 4, dur: frame,
			steps: []step{"d0", "d40", "d80", "r0", "r80"},
			pairs: "r0+d0 r80+d80", discards: "d40:nopartner",
		},
		{
			name: "timestamp dist starts later", mode: PairByTimestamp, maxPending: 4, dur: frame,
			steps: []step{"d80", "r0", "r40", "r80"},
			pairs: "r80+d80", discards: "r0:nopartner r40:nopartner",
		},
		{
			name: "timestamp without durations needs exact times", mode: PairByTimestamp, maxPending: 4,
			steps: []step{"r0", "d1", "r40", "d40"},
			pairs: "r40+d40", discards: "r0:nopartner d1:nopartner",
		},
		{
			name: "missing timestamps fall back to order", mode: PairByTimestamp, maxPending: 4,
			steps: []step{"r", "r", "d", "d"},
			pairs: "r+d r+d",
		},
		{
			name: "order ignores timestamps", mode: PairByOrder, maxPending: 4, dur: frame,
			steps: []step{"r0", "r40", "d1000", "d2000"},
			pairs: "r0+d1000 r40+d2000",
		},
		{
			name: "full queue drops its oldest frame", mode: PairByOrder, maxPending: 2,
			steps: []step{"r0", "r40", "r80", "d0"},
			pairs: "r40+d0", discards: "r0:overflow",
		},
		{
			name: "one-side eos keeps pairing the waiting frames", mode: PairByTimestamp, maxPending: 4, dur: frame,
			steps: []step{"r0", "r40", "eos:r", "d0", "d40", "d80"},
			pairs: "r0+d0 r40+d40", discards: "d80:nopartner",
		},
		{
			name: "eos discards the other side's waiting frames", mode: PairByOrder, maxPending: 4,
			steps:    []step{"r0", "r40", "eos:d", "r80"},
			discards: "r0:nopartner r40:nopartner r80:nopartner",
		},
		{
			name: "eos on both sides empties every queue", mode: PairByOrder, maxPending: 4,
			steps:    []step{"d0", "d40", "eos:d", "eos:r"},
			discards: "d0:nopartner d40:nopartner",
		},
		{
			name: "flush forgets frames and eos", mode: PairByOrder, maxPending: 4,
			steps: []step{"r0", "eos:r", "flush:r", "flush:d", "r40", "d40"},
			pairs: "r40+d40", discards: "r0:flushed",
		},
		{
			// A seek reaches ref first: the distorted side still delivers
			// frames from before it, and ends, until its own flush.
			name: "a seek flushes one side before the other", mode: PairByTimestamp, maxPending: 4, dur: frame,
			steps: []step{"d200", "flush:r", "r0", "d240", "r40", "eos:d", "flush:d", "d0", "d40"},
			pairs: "r0+d0 r40+d40", discards: "d200:flushed d240:flushed",
		},
		{
			name: "a seek flushes dist first, ref had ended", mode: PairByOrder, maxPending: 4,
			steps: []step{"r0", "eos:r", "flush:d", "d0", "d40", "flush:r", "r0", "r40"},
			pairs: "r0+d0 r40+d40", discards: "r0:flushed",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runPairer(t, tc.mode, tc.maxPending, tc.dur, tc.steps)
			if g := strings.Join(got.pairs, " "); g != tc.pairs {
				t.Errorf("pairs = %q, want %q", g, tc.pairs)
			}
			if g := strings.Join(got.discards, " "); g != tc.discards {
				t.Errorf("discards = %q, want %q", g, tc.discards)
			}
		})
	}
}

func TestTolerance(t *testing.T) {
	tests := []struct{ a, b, want time.Duration }{
		{NoTime, NoTime, 0},
		{40, NoTime, 20},
		{NoTime, 40, 20},
		{40, 20, 10},
		{20, 40, 10},
	}
	for _, tc := range tests {
		if got := tolerance(tc.a, tc.b); got != tc.want {
			t.Errorf("tolerance(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
