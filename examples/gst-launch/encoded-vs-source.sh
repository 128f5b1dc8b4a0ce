#!/usr/bin/env bash
# Scores an encoded file against the source it was made from, decoding it
# with decodebin.
#
#   ./encoded-vs-source.sh [SOURCE.y4m [ENCODED]]
#
# SOURCE is an 8-bit Y4M file (read with libav's demuxer).
# Without ENCODED, the source is first encoded to H.264 in MP4 at a low
# bitrate. The decoded stream must have the source's size; it is converted
# to the source's pixel format.
set -euo pipefail
. "$(dirname "$0")/common.sh"

if [ $# -ge 1 ]; then
  src=$1
else
  src=$(sample_clip storm_640x360_ref)
fi
enc=${2:-}
if [ -z "$enc" ]; then
  enc=${TMPDIR:-/tmp}/vmafsink-encoded.mp4
  gst-launch-1.0 -q filesrc location="$src" ! avdemux_yuv4mpegpipe ! videoconvert ! \
    x264enc bitrate=400 ! mp4mux ! filesink location="$enc"
  echo "encoded $src to $enc"
fi

# The source's format, as the demuxer reports it (e.g. I420, Y444).
format=$(gst-launch-1.0 -v filesrc location="$src" ! avdemux_yuv4mpegpipe ! fakesink num-buffers=1 2>/dev/null |
  sed -nE 's/.*fakesink0.GstPad:sink: caps = .*format=\(string\)([A-Za-z0-9_]+).*/\1/p' | head -1)

gst-launch-1.0 -m \
  filesrc location="$src" ! avdemux_yuv4mpegpipe ! v.ref_sink \
  filesrc location="$enc" ! decodebin ! videoconvert ! video/x-raw,format="${format:-I420}" ! v.dist_sink \
  vmafsink name=v | print_scores
