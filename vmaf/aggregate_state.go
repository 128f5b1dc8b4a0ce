package vmaf

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature"
)

// AggregateState is the exact state behind one extractor's aggregate
// metrics (apsnr's squared errors and sample counts): the state of parts
// of a stream scored apart adds up to the whole stream's, which
// AggregatesOf turns into the metrics Aggregates would have given.
type AggregateState struct {
	// Extractor names the extractor instance: its name and settings.
	Extractor string
	Totals    []uint64
}

// AggregateStates are the run's aggregate states, known once Flush has
// returned, and only from the native engine.
func (c *Context) AggregateStates() []AggregateState {
	if n, ok := c.s.(*nativeScorer); ok {
		return slices.Clone(n.aggStates)
	}
	return nil
}

// AggregatesOf gives the aggregate metrics of a stream whose parts were
// scored apart, from every part's AggregateStates: the metrics one run
// over the whole stream would have given. cfg is the parts' configuration
// and format their pictures' geometry and sample format (no samples).
func AggregatesOf(cfg Config, format Picture, parts [][]AggregateState) ([]Metric, error) {
	format.Planes = [3][]byte{}
	p, err := newPlan(cfg.Models, cfg.Features, formatOf(&format))
	if err != nil {
		return nil, err
	}
	set, err := newUnitSet(&format, p)
	if err != nil {
		return nil, err
	}
	defer set.close()
	aggs := map[unitKey][]feature.Aggregator{}
	byName := map[string]feature.Aggregator{}
	for k, x := range set.units {
		if a, ok := x.(feature.Aggregator); ok {
			aggs[k] = []feature.Aggregator{a}
			byName[stateName(k)] = a
		}
	}
	for i, part := range parts {
		for _, st := range part {
			a, ok := byName[st.Extractor]
			if !ok {
				return nil, fmt.Errorf("vmaf: part %d has aggregate state of %q, which this configuration does not run", i, st.Extractor)
			}
			if err := a.AddAggregateState(st.Totals); err != nil {
				return nil, fmt.Errorf("vmaf: part %d: %w", i, err)
			}
		}
	}
	metrics, _ := readAggregates(aggs)
	return metrics, nil
}

func stateName(k unitKey) string {
	if k.settings == "" {
		return k.name
	}
	return k.name + ":" + k.settings
}

// readAggregates merges each extractor's instances and reads the stream's
// aggregate metrics and states, in the order of the extractors' names.
// It leaves the instances open.
func readAggregates(aggs map[unitKey][]feature.Aggregator) ([]Metric, []AggregateState) {
	keys := make([]unitKey, 0, len(aggs))
	for k := range aggs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b unitKey) int { return strings.Compare(a.name+a.settings, b.name+b.settings) })
	var metrics []Metric
	var states []AggregateState
	for _, k := range keys {
		all := aggs[k]
		for _, o := range all[1:] {
			all[0].Merge(o)
		}
		names, vals := all[0].Aggregates()
		for i, n := range names {
			metrics = append(metrics, Metric{n, vals[i]})
		}
		if st := all[0].AggregateState(); st != nil {
			states = append(states, AggregateState{Extractor: stateName(k), Totals: st})
		}
	}
	return metrics, states
}
