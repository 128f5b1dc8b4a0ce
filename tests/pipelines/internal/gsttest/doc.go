// Package gsttest runs GStreamer pipelines with the vmafsink plugin for
// end-to-end tests: it builds the plugin, runs gst-launch-1.0, parses the
// element's bus messages and provides the golden clips.
package gsttest
