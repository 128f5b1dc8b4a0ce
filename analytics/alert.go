package analytics

// dropState follows the run of consecutive low frames.
type dropState struct {
	open bool // a drop is open: the newest of Monitor.alerts
	run  Alert
	sum  float64 // of run's scores
	ids  uint64
}

// alert moves the drop state on with s. Called with mu held.
func (m *Monitor) alert(s Sample) {
	th := m.cfg.AlertThreshold
	if th == 0 {
		return
	}
	d := &m.drop
	if s.Score >= th {
		if d.open {
			a := m.alerts.At(m.alerts.Len() - 1)
			a.State = AlertEnd
			m.closeDrop(a, s.Index)
		}
		d.run.Frames = 0
		return
	}
	r := &d.run
	if r.Frames == 0 {
		*r = Alert{First: s.Index, Start: s.RunningTime, Min: s.Score, Threshold: th}
		d.sum = 0
	}
	r.Frames++
	r.Last, r.End, r.Model = s.Index, s.RunningTime, s.Model
	r.Min = min(r.Min, s.Score)
	d.sum += s.Score
	r.Mean = d.sum / float64(r.Frames)
	switch {
	case d.open:
		*m.alerts.At(m.alerts.Len() - 1) = *r
	case r.Frames >= m.cfg.alertFrames():
		d.ids++
		r.ID, r.State = d.ids, AlertBegin
		d.open = true
		m.alerts.PushDropOldest(*r)
		a := *r
		m.events = append(m.events, Event{Alert: &a})
	}
}

// closeDrop records the open drop a as ended by the frame at index by
// (-1: by the end of stream) and emits it. Called with mu held.
func (m *Monitor) closeDrop(a *Alert, by int) {
	m.drop.open = false
	m.drop.run.Frames = 0
	c := *a
	m.lastDrop, m.ended = &c, by
	e := c
	m.events = append(m.events, Event{Alert: &e})
}
