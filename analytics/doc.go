// Package analytics turns the stream of per-frame scores into what people
// watching a live encode ask for: rolling windows, percentiles, quality
// drops (alerts), a health verdict and a whole-run score history.
//
// A Monitor consumes each scored frame's primary score (the first model's)
// in frame order, from one goroutine, and answers concurrent readers.
//
// Windows. In frames mode (Config.WindowFrames = N) a window record covers
// the last N scored frames and is emitted every WindowStep scored frames
// once N have been scored (WindowStep 0 = N: tumbling windows). In duration
// mode (Config.WindowDuration = D) windows tumble by running time: a record
// covering the samples of [start, start+D) is emitted when a sample's
// running time reaches start+D; the next window starts at the latest
// multiple of D past start that the sample's time reaches, so an idle gap
// emits no empty window. Samples without a running time (NoTime) are
// ignored for windowing in duration mode, and a running time earlier than
// the window's start (a new segment) abandons the partial window and starts
// a new one there. End of stream (Finish) emits no partial window.
// Computing a window costs O(N) when it is emitted, plus O(N log N) when
// percentiles are configured (they are exact, nearest-rank, over the
// window's scores).
//
// Percentiles. Whole-run percentiles per model key come from a Histogram:
// the score rounded to 1/1000 over [0,100], exact to the printed
// resolution (three decimals), 391 KiB per model key, O(1) per frame.
//
// Alerts. With Config.AlertThreshold set, a frame scoring below it is low;
// AlertFrames (default 1) consecutive low scored frames make a drop, which
// begins (an Alert with State AlertBegin) at the frame that completes the
// run and ends (AlertEnd) at the first scored frame at or above the
// threshold. Frames not scored (skipped, dropped) neither break nor extend
// a run. A drop still open at Finish ends there with AtEOS set.
//
// Health. Health().Verdict is
//   - no_data before any scored frame;
//   - critical while a drop is open;
//   - warning when no drop is open but, among the recent frames (the last
//     max(AlertFrames, 30) scored frames, summarised in Health.Current), a
//     frame scored below the threshold or a drop ended, or their mean is
//     below the threshold + 5;
//   - healthy otherwise.
//
// With alerts off (no threshold) the verdict is healthy (or no_data) and
// the reasons say that no threshold is set.
//
// History. Every scored frame's score is kept, 8 bytes a frame (the index
// as int32, the score as float32, so about 7 significant digits), up to
// Config.HistoryFrames (default DefaultHistoryFrames: 24 h at 60 fps,
// 41.5 MB at most; 1 h at 60 fps is 1.7 MB); beyond it the oldest are
// dropped. The memory grows with the run, it is not reserved up front.
package analytics
