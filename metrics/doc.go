// Package metrics serves a pipeline.Runner's state and scores to
// Prometheus: /metrics on an HTTP listener, in the exposition format,
// through the official client library.
//
// Each Exporter has its own registry, so that two elements in one
// process never collide; the Go runtime and process collectors are
// registered in it too (they describe the whole process, so they carry
// no element label). Every vmaf_ metric carries element (the element's
// name, "vmaf-score" for the CLI); the score metrics carry model too.
//
// What it costs: the frame counters, the pause state, the swap count,
// the control-plane clients, the window score and the alert state are
// read from the Runner when Prometheus scrapes, so they cost nothing per
// frame. Only the vmaf_score histogram and vmaf_last_score are fed per
// frame, from Runner.Subscribe on the Runner's publishing goroutine: one
// histogram observation and one atomic store (see BenchmarkObserve).
//
// The model label is the key the results file pools the model's scores
// under (report.ModelKeys: the model's name, or its version after a swap
// to another model of the same name). A model swapped out keeps its
// histogram series, which are cumulative over the run; the gauges carry
// only the current model's label. Label values are bounded by the
// models a run ever scores with; past maxModels distinct ones the rest
// share model="other", so a run that swaps without end cannot grow the
// series without bound.
package metrics
