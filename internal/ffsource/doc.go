// Package ffsource decodes video with FFmpeg's libraries (through
// go-astiav) into the engine's planar pictures, for scoring files that are
// not raw YUV: any container and codec FFmpeg opens, or a stream on
// standard input.
//
// A Source decodes on its own goroutine, ahead of its consumer, into a
// fixed set of frames: a picture in one of the engine's layouts is handed
// out as a view of FFmpeg's buffer without copying, anything else (nv12,
// p010, RGB, a size to scale) is converted by swscale into a buffer the
// frame keeps. The consumer gives each frame back with Release, typically
// from the engine's release callback, and the frame is decoded into again.
package ffsource
