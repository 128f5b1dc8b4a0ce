package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/control"
)

// target is a scripted measurement for the CLI: frames come from the
// test, commands apply at the next frame.
type target struct {
	mu       sync.Mutex
	records  []control.Record
	pending  []*control.Command
	all      map[uint64]*control.Command
	full     bool
	finished bool
	feed     chan control.Record
	applied  chan struct{}
	mon      *analytics.Monitor // see alerts_test.go
}

func newTarget() *target {
	return &target{all: map[uint64]*control.Command{}, feed: make(chan control.Record, 256), applied: make(chan struct{}), mon: newMonitor(analytics.Config{})}
}

func (t *target) Status() control.Status {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := control.Status{State: control.StateRunning, PauseMode: control.PauseSkip, Model: "vmaf", Engine: "native",
		Width: 576, Height: 324, Format: "I420", FramesScored: uint64(len(t.records)), CommandsPending: len(t.pending)}
	if t.finished {
		st.State = control.StateFinished
	}
	return st
}

func (t *target) Features() control.Features {
	return control.Features{Extractors: []control.Extractor{{Name: "adm", Outputs: []string{"integer_adm2_egl_1"}, Options: map[string]float64{"adm_enhn_gain_limit": 1}},
		{Name: "cambi", Outputs: []string{"cambi", "cambi_source"}, Options: map[string]float64{"full_ref": 1, "enc_width": 1920}, Request: "cambi=full_ref=true:enc_width=1920"}},
		Extra: []string{"cambi=full_ref=true:enc_width=1920"}}
}

func (t *target) Scores(last, worst int) control.Scores {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := min(last, len(t.records))
	return control.Scores{Records: append([]control.Record(nil), t.records[len(t.records)-n:]...),
		Pooled: []control.Pooled{{Name: "vmaf", Count: len(t.records), Min: 1, Max: 2, Mean: 1.5, HarmonicMean: 1.4}}}
}

func (t *target) Models(context.Context) (control.ModelList, error) {
	return control.ModelList{Models: []control.ModelInfo{{Name: "vmaf_v0.6.1", Source: "builtin", Features: []string{"integer_adm2"}}}}, nil
}

func (t *target) enqueue(kind, model string) (control.Command, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.finished:
		return control.Command{}, control.Errorf(control.CodeFinished, "the stream has ended")
	case t.full:
		return control.Command{}, control.Errorf(control.CodeQueueFull, "16 commands pending")
	}
	c := &control.Command{ID: uint64(len(t.all) + 1), Kind: kind, Status: control.CommandEnqueued, Frame: -1, Model: model}
	t.all[c.ID], t.pending = c, append(t.pending, c)
	return *c, nil
}

func (t *target) RequestSwap(_ context.Context, model, name string) (control.Command, error) {
	if model != "vmaf_v0.6.1neg" {
		return control.Command{}, control.Errorf(control.CodeUnknownModel, "no model %q", model)
	}
	return t.enqueue("swap", model)
}

func (t *target) Pause(context.Context) (control.Command, error)  { return t.enqueue("pause", "") }
func (t *target) Resume(context.Context) (control.Command, error) { return t.enqueue("resume", "") }

func (t *target) Wait(ctx context.Context, id uint64) (control.Command, error) {
	for {
		t.mu.Lock()
		c, ch := *t.all[id], t.applied
		t.mu.Unlock()
		if c.Status != control.CommandEnqueued {
			return c, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return c, ctx.Err()
		}
	}
}

func (t *target) Records(context.Context) <-chan control.Record { return t.feed }

func (t *target) frame(score float64) {
	t.mu.Lock()
	idx := int64(len(t.records))
	for _, c := range t.pending {
		c.Status, c.Frame = control.CommandApplied, idx
	}
	t.pending = nil
	close(t.applied)
	t.applied = make(chan struct{})
	r := control.Record{Frame: idx, PTS: idx * 40e6, Model: "vmaf", Score: score}
	t.records = append(t.records, r)
	t.mu.Unlock()
	t.mon.Add(analytics.Sample{Index: int(idx), RunningTime: time.Duration(idx) * 40 * time.Millisecond, Model: "vmaf", Score: score})
	t.feed <- r
}

func serve(t *testing.T) (*target, string) {
	t.Helper()
	tg := newTarget()
	path := filepath.Join(t.TempDir(), "vmaf.sock")
	s, err := control.Start(path, tg, control.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	servers.Store(path, s)
	return tg, path
}

func vmafctl(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

func TestCommands(t *testing.T) {
	tg, sock := serve(t)
	for i := range 3 {
		tg.frame(float64(80 + i))
	}
	tests := []struct {
		args []string
		code int
		out  string // in stdout (or stderr when code != 0)
	}{
		{[]string{"-s", sock, "status"}, exitOK, "state     running (pause mode skip)"},
		{[]string{"-s", sock, "status", "-json"}, exitOK, `"frames_scored": 3`},
		{[]string{"-s", sock, "-json", "status"}, exitOK, `"socket": "` + sock + `"`},
		{[]string{"-s", sock, "features"}, exitOK, "adm adm_enhn_gain_limit=1: integer_adm2_egl_1"},
		{[]string{"-s", sock, "features"}, exitOK, "cambi enc_width=1920 full_ref=1: cambi cambi_source  [requested: cambi=full_ref=true:enc_width=1920]"},
		{[]string{"-s", sock, "features"}, exitOK, "extra: cambi=full_ref=true:enc_width=1920"},
		{[]string{"-s", sock, "extractors"}, exitOK, "cambi: cambi"},
		{[]string{"-s", sock, "extractors"}, exitOK, "renames outputs"},
		{[]string{"-s", sock, "extractors", "-json"}, exitOK, `"name": "full_ref"`},
		{[]string{"-s", sock, "score", "-n", "2"}, exitOK, "2  80ms   vmaf  82.000"},
		{[]string{"-s", sock, "score", "-n", "2", "-json"}, exitOK, `"frame": 1`},
		{[]string{"-s", sock, "models"}, exitOK, "vmaf_v0.6.1  builtin  integer_adm2"},
		{[]string{"-s", sock, "swap", "vmaf_v0.6.1neg"}, exitOK, "swap to vmaf_v0.6.1neg (command 1) enqueued"},
		{[]string{"-s", sock, "swap", "nope"}, exitRefused, "unknown_model"},
		{[]string{"-s", sock, "pause", "-json"}, exitOK, `"status": "enqueued"`},
		{[]string{"-s", sock, "-timeout", "100ms", "resume", "-wait"}, exitTimeout, "timeout"},
		{[]string{"-s", filepath.Join(t.TempDir(), "none.sock"), "status"}, exitConnect, "cannot reach"},
		{[]string{"status"}, exitUsage, "no socket"},
		{[]string{"-s", sock, "explode"}, exitUsage, "unknown command"},
		{[]string{"-s", sock, "swap"}, exitUsage, "usage: vmafctl swap"},
		{[]string{"-s", sock, "score", "-n", "x"}, exitUsage, "invalid value"},
		{[]string{}, exitUsage, "usage:"},
	}
	for _, tt := range tests {
		code, out, errOut := vmafctl(t, tt.args...)
		where := out
		if tt.code != exitOK {
			where = errOut + out
		}
		if code != tt.code || !strings.Contains(where, tt.out) {
			t.Errorf("vmafctl %v = %d\nstdout: %s\nstderr: %s\nwant %d with %q", tt.args, code, out, errOut, tt.code, tt.out)
		}
	}

	tg.mu.Lock()
	tg.full = true
	tg.mu.Unlock()
	if code, _, e := vmafctl(t, "-s", sock, "pause"); code != exitBusy || !strings.Contains(e, "queue_full") {
		t.Errorf("full queue: %d %s", code, e)
	}
	tg.mu.Lock()
	tg.full, tg.finished = false, true
	tg.mu.Unlock()
	if code, _, e := vmafctl(t, "-s", sock, "swap", "vmaf_v0.6.1neg"); code != exitFinished {
		t.Errorf("finished stream: %d %s", code, e)
	}
}

func TestSwapWait(t *testing.T) {
	tg, sock := serve(t)
	done := make(chan string)
	go func() {
		code, out, e := vmafctl(t, "-s", sock, "swap", "vmaf_v0.6.1neg", "-wait")
		done <- strings.TrimSpace(out+e) + " " + string(rune('0'+code))
	}()
	for tg.Status().CommandsPending == 0 {
		time.Sleep(time.Millisecond)
	}
	tg.frame(70)
	if got := <-done; got != "swap to vmaf_v0.6.1neg (command 1) applied at frame 0 0" {
		t.Errorf("swap -wait printed %q", got)
	}
}

func TestWatch(t *testing.T) {
	tg, sock := serve(t)
	for _, asJSON := range []bool{false, true} {
		done := make(chan string)
		go func() {
			args := []string{"-s", sock, "watch", "-n", "3"}
			if asJSON {
				args = append(args, "-json")
			}
			code, out, e := vmafctl(t, args...)
			if code != exitOK {
				out += e
			}
			done <- out
		}()
		var out string
		for got := false; !got; {
			select {
			case out = <-done:
				got = true
			case <-time.After(20 * time.Millisecond):
				tg.frame(50) // until the watcher has subscribed and seen three
			}
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 3 {
			t.Fatalf("watch -n 3 printed %d lines:\n%s", len(lines), out)
		}
		if asJSON {
			var r control.Record
			if err := json.Unmarshal([]byte(lines[2]), &r); err != nil || r.Score != 50 || r.Model != "vmaf" {
				t.Errorf("watch -json line %q: %v", lines[2], err)
			}
			continue
		}
		if !strings.Contains(lines[2], "50.000  ▅▅▅") || !strings.Contains(lines[2], "mean  50.000") {
			t.Errorf("watch line %q lacks sparkline or mean", lines[2])
		}
	}
}
