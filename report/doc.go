// Package report writes VMAF results in libvmaf's output formats (XML,
// JSON, CSV and subtitles), byte for byte as libvmaf 3.2's vmaf tool lays
// them out, so that existing parsers read them unchanged.
//
// A Writer takes frames one at a time. Writing to a file made with Create,
// the file is valid after every commit: frames are appended and the pooled
// metrics and closing brackets rewritten behind them, so a run that stops
// part-way (a crash, a killed pipeline) still leaves a parseable document
// with the frames scored so far. Writing to any other io.Writer, the
// document is assembled in memory and written on Close, as libvmaf does.
package report
