package element

import "github.com/vmafsink/vmafsink/internal/spareprocs"

// spareProcessor gives the Go scheduler one processor more than the
// machine has CPUs (spareprocs.Reserve never lowers it, so every start
// may ask). GStreamer's streaming threads enter Go for every buffer and
// event, and a thread entering Go needs a free processor: with every
// processor running a scoring worker the branch upstream stalled
// (measured at 576x324 with two threads on 2 CPUs: a 480-frame run in
// 0.86-0.97 s with no spare, 0.80-0.81 s with one, the same CPU time).
// The control plane asks for more when it starts (control/attach).
func spareProcessor() { spareprocs.Reserve(1) }
