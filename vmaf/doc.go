// Package vmaf scores distorted video against a reference with VMAF
// (Video Multi-method Assessment Fusion), giving the same numbers as
// libvmaf 3.2's integer feature extractors.
//
// The API has four parts, in the order a frame meets them:
//
//   - Picture: a view of one frame's planes in the caller's memory.
//   - Model: a VMAF model, built in (BuiltinModel) or read from libvmaf's
//     JSON format (ParseModel, LoadModelFile, ParseModelSpec). ModelSpec
//     is the -m option's grammar split into its parts, for callers that
//     read or rewrite a spec before loading it.
//   - Context: takes picture pairs one at a time (Submit), extracts the
//     features its models need on worker goroutines, and hands back one
//     Result per frame, in frame order.
//   - Flush: ends the stream; results held back for temporal features
//     (motion needs the next frame) come out, then pooled statistics are final.
package vmaf
