package analytics

import (
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vmafsink/vmafsink/internal/ring"
)

// maxAlerts is how many drops Alerts remembers.
const maxAlerts = 1024

// Monitor computes windows, percentiles, alerts, health and history from
// the scored frames. Add and Finish are called from one goroutine; the
// readers from any.
type Monitor struct {
	cfg Config

	mu       sync.RWMutex
	scored   int
	finished bool
	win      windower
	last     *Window // latest window record
	hists    map[string]*Histogram
	keys     []string // hists' keys in first-seen order
	drop     dropState
	alerts   *ring.Buffer[Alert] // the open drop, if any, is the newest
	lastDrop *Alert              // latest closed drop
	ended    int                 // index of the frame that ended lastDrop (-1: at EOS or none)
	recent   *ring.Buffer[Sample]
	hist     history

	subs   atomic.Pointer[[]*subscriber]
	subsMu sync.Mutex
	events []Event // built under mu, delivered after
}

type subscriber struct{ fn func(Event) }

// New returns a Monitor for cfg, or cfg's validation error.
func New(cfg Config) (*Monitor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Percentiles = append([]float64(nil), cfg.Percentiles...)
	m := &Monitor{
		cfg:    cfg,
		alerts: ring.New[Alert](maxAlerts),
		recent: ring.New[Sample](cfg.recentFrames()),
		hist:   history{limit: cfg.historyFrames()},
		ended:  -1,
	}
	m.win.init(cfg)
	if len(cfg.Percentiles) > 0 {
		m.hists = map[string]*Histogram{}
	}
	m.subs.Store(&[]*subscriber{})
	return m, nil
}

// Config returns the configuration the Monitor runs with.
func (m *Monitor) Config() Config {
	c := m.cfg
	c.Percentiles = append([]float64(nil), c.Percentiles...)
	return c
}

// Add takes the next scored frame. It is O(1) amortized, except when it
// emits a window record (see the package doc). Samples with a non-finite
// score are ignored. Subscribers are called on Add's goroutine, after the
// Monitor's state reflects the sample.
func (m *Monitor) Add(s Sample) {
	if math.IsNaN(s.Score) || math.IsInf(s.Score, 0) {
		return
	}
	m.mu.Lock()
	if m.finished {
		m.mu.Unlock()
		return
	}
	m.scored++
	m.recent.PushDropOldest(s)
	m.hist.add(s)
	if m.hists != nil {
		h := m.hists[s.Model]
		if h == nil {
			h = &Histogram{}
			m.hists[s.Model] = h
			m.keys = append(m.keys, s.Model)
		}
		h.Add(s.Score)
	}
	if w, ok := m.win.add(s); ok {
		rec := new(Window)
		*rec = w
		m.last = rec
		m.events = append(m.events, Event{Window: rec})
	}
	m.alert(s)
	m.deliver()
}

// Finish closes an open drop (AtEOS, End = end when end is known) and
// emits it; it emits nothing else, and no partial window. Later Adds are
// ignored. Finish is idempotent.
func (m *Monitor) Finish(end time.Duration) {
	m.mu.Lock()
	if m.finished {
		m.mu.Unlock()
		return
	}
	m.finished = true
	if m.drop.open {
		a := m.alerts.At(m.alerts.Len() - 1)
		a.State, a.AtEOS = AlertEnd, true
		if end != NoTime && end >= 0 {
			a.End = end
		}
		m.closeDrop(a, -1)
	}
	m.deliver()
}

// Reopen takes frames again after Finish, for a stream that restarts
// from its end (a seek back after EOS): windows, percentiles and the
// drop history carry on, and the next Finish ends the run again.
func (m *Monitor) Reopen() {
	m.mu.Lock()
	m.finished = false
	m.mu.Unlock()
}

// deliver hands the pending events to the subscribers. Called with mu
// held; it releases it.
func (m *Monitor) deliver() {
	evs := m.events
	m.events = m.events[:0:0]
	m.mu.Unlock()
	if len(evs) == 0 {
		return
	}
	for _, s := range *m.subs.Load() {
		for _, e := range evs {
			s.fn(e)
		}
	}
}

// Subscribe calls fn with each window record and each drop's begin and
// end, synchronously on Add's (or Finish's) goroutine: fn must be quick.
// Each event is fn's own copy. cancel ends the subscription.
func (m *Monitor) Subscribe(fn func(Event)) (cancel func()) {
	s := &subscriber{fn: func(e Event) {
		// Every subscriber gets copies it may keep.
		if e.Window != nil {
			w := *e.Window
			w.Percentiles = append([]Percentile(nil), w.Percentiles...)
			e.Window = &w
		}
		if e.Alert != nil {
			a := *e.Alert
			e.Alert = &a
		}
		fn(e)
	}}
	m.subsMu.Lock()
	old := *m.subs.Load()
	next := append(old[:len(old):len(old)], s)
	m.subs.Store(&next)
	m.subsMu.Unlock()
	return func() {
		m.subsMu.Lock()
		defer m.subsMu.Unlock()
		cur := *m.subs.Load()
		next := make([]*subscriber, 0, len(cur))
		for _, c := range cur {
			if c != s {
				next = append(next, c)
			}
		}
		m.subs.Store(&next)
	}
}

// Scored is how many samples were added.
func (m *Monitor) Scored() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.scored
}

// LastWindow returns the latest window record.
func (m *Monitor) LastWindow() (Window, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.last == nil {
		return Window{}, false
	}
	return cloneWindow(m.last), true
}

func cloneWindow(w *Window) Window {
	c := *w
	c.Percentiles = append([]Percentile(nil), w.Percentiles...)
	return c
}

// ActiveAlert returns the open drop, if any.
func (m *Monitor) ActiveAlert() (Alert, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if !m.drop.open {
		return Alert{}, false
	}
	return *m.alerts.At(m.alerts.Len() - 1), true
}

// Alerts returns the latest n drops, closed or open, oldest first; the
// Monitor remembers the last 1024. n <= 0 returns them all.
func (m *Monitor) Alerts(n int) []Alert {
	m.mu.RLock()
	defer m.mu.RUnlock()
	k := m.alerts.Len()
	if n <= 0 || n > k {
		n = k
	}
	out := make([]Alert, n)
	for i := range out {
		out[i] = *m.alerts.At(k - n + i)
	}
	return out
}

// Percentiles returns the whole-run percentiles of Config.Percentiles per
// model key, from a Histogram each (exact to 0.001); nil when no
// percentiles are configured.
func (m *Monitor) Percentiles() map[string][]Percentile {
	if len(m.cfg.Percentiles) == 0 {
		return nil
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make(map[string][]Percentile, len(m.hists))
	for _, k := range m.keys {
		h := m.hists[k]
		ps := make([]Percentile, len(m.cfg.Percentiles))
		for i, p := range m.cfg.Percentiles {
			ps[i] = Percentile{P: p, Value: h.Percentile(p)}
		}
		out[k] = ps
	}
	return out
}

// ModelKeys returns the model keys Percentiles reports, in the order they
// were first scored (nil when no percentiles are configured).
func (m *Monitor) ModelKeys() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return append([]string(nil), m.keys...)
}

// History returns the scores of the scored frames with from <= Index <=
// to that are still kept, oldest first (RunningTime is NoTime: the
// history keeps index and score only), and have, the index range of the
// first and last frame kept ({-1, -1} when none).
func (m *Monitor) History(from, to int) (out []Sample, have [2]int) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.hist.get(from, to)
}

// HistoryLen is how many scored frames the history holds.
func (m *Monitor) HistoryLen() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.hist.n
}
