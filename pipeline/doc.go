// Package pipeline is the frame-boundary engine between a video framework
// and the VMAF scorer. It knows nothing about GStreamer: a host (the
// vmafsink element, a test, a command-line tool) pushes reference and
// distorted frames from any goroutines, and a Runner
//
//   - pairs them, by running time or in lockstep, holding unmatched frames
//     in a bounded per-side queue and counting those that never find a
//     partner;
//   - hands pairs in order to a vmaf.Context scoring on worker goroutines,
//     blocking the pusher or dropping pairs when scoring falls behind;
//   - runs queued commands (model swap, pause, resume) between two pairs,
//     so no frame is ever scored half by one model and half by another;
//   - hands paired frames it does not score (paused, or dropped under
//     back-pressure) to the engine for motion alone, so that no score
//     depends on a pause or a drop, and starts a new stream at a flush;
//   - publishes each frame's record, naming the model that scored it, to
//     subscribers on its own goroutine, never on the pusher's;
//   - keeps pooled statistics, counters and the most recent records for
//     status queries.
package pipeline
