// Package feature defines what a feature extractor is to the engine: a
// Kind (libvmaf's extractor name, options and output names) and the
// instances it makes for one stream, which compute each frame pair's
// values. It is modelled on libvmaf's VmafFeatureExtractor (init,
// extract, flush, close): New is init, Extract or Push is extract, Flush
// and Close are the rest.
//
// Extractors live one to a folder beside this one and depend on nothing
// else of the engine, so that each can be read, tested and made fast on
// its own; the engine's scheduler decides which run, on which goroutine.
package feature

// Extractor computes one frame pair's values independently of any other
// frame. The engine gives each worker goroutine its own instance, so an
// instance need not be safe for concurrent use, and may keep scratch
// memory across frames (it should allocate nothing per frame once warm).
type Extractor interface {
	// Extract writes frame index's values into out, one per name
	// Kind.Outputs gave, in that order. The frames are views valid only
	// during the call.
	Extract(index int, ref, dist *Frame, out []float64) error
	// Close releases what the instance holds.
	Close()
}

// Parted is an Extractor whose work falls into independent parts, each
// giving some of its outputs, so that the parts of one frame can run at
// once on different instances (the engine's workers). Running every part
// of a frame, on one instance or several, gives Extract's values.
type Parted interface {
	Extractor
	// ExtractPart computes part p (0 <= p < Kind.Parts) of frame index,
	// writing only that part's values into out, which is laid out as for
	// Extract.
	ExtractPart(p, index int, ref, dist *Frame, out []float64) error
}

// Aggregator is an Extractor that also has values over the whole stream,
// libvmaf's aggregate metrics (apsnr_y). The engine runs an instance per
// worker, each seeing only some frames, so at the end it merges them into
// one, which then gives the stream's values.
type Aggregator interface {
	Extractor
	// Merge adds the totals of other, an instance of the same kind and
	// settings, to this one.
	Merge(other Aggregator)
	// Aggregates are the stream's values, by name.
	Aggregates() (names []string, values []float64)
	// AggregateState is the exact totals the aggregates come from, and
	// AddAggregateState adds such totals (of other parts of the stream,
	// scored apart) to this instance's.
	AggregateState() []uint64
	AddAggregateState(s []uint64) error
}

// Emit receives frame index's final values, one per output name. out is
// reused once Emit returns.
type Emit func(index int, out []float64)

// Sequential computes values that depend on other frames of the stream
// (motion, temporal SpEED). The engine gives one instance every frame of
// the stream in order, on one goroutine, whether the frame is scored or
// not (subsampling, a paused measurement), and expects values for every
// frame, in order, from Push or, for the last frames, Flush.
type Sequential interface {
	// Push takes the next frame and emits the frames whose values became
	// final, in order; with a look-ahead it emits an earlier frame or
	// none.
	Push(index int, ref, dist *Frame, emit Emit) error
	// Flush emits the frames still pending at the end of the stream.
	Flush(emit Emit) error
	Close()
}

// Kind describes one of libvmaf's extractors. Exactly one of New and
// NewSequential is set. A Kind is read-only once declared.
type Kind struct {
	// Name is libvmaf's extractor name, as --feature names it: "cambi".
	Name string
	// Options are the extractor's options, as --feature NAME=opt=val
	// sets them.
	Options []Option
	// Outputs are the names of the values an instance with these
	// settings reports for a stream of this format, in the order Extract
	// writes them; they include the settings' Suffix where libvmaf's
	// extractor adds it.
	Outputs func(f Format, s Settings) []string
	// New makes an instance for one stream, or says why the stream or
	// the settings do not suit the extractor.
	New func(f Format, s Settings) (Extractor, error)
	// NewSequential is New for extractors that need frames in order.
	// Parts, when above 1, says that New's instances are Parted into
	// this many parts.
	Parts         int
	NewSequential func(f Format, s Settings) (Sequential, error)
	// Hidden marks an extractor whose values only feed a model (a learned
	// model's picture stage): computed, never reported as features.
	Hidden bool
	// Check, if set, refuses settings that New would refuse whatever the
	// stream, so that a bad request fails before the first frame.
	Check func(s Settings) error
}
