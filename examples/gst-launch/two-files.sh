#!/usr/bin/env bash
# Scores a distorted video file against its reference file.
#
#   ./two-files.sh [REFERENCE DISTORTED [RESULTS.json]]
#
# Without arguments it scores a sample pair from the repository's test
# data. 8-bit Y4M files are read with libav's demuxer (GStreamer 1.22's
# y4mdec rejects some valid headers, and libav's crashes on 10-bit ones);
# anything else goes through decodebin. Both must decode to the same size
# and format.
set -euo pipefail
. "$(dirname "$0")/common.sh"

if [ $# -ge 2 ]; then
  ref=$1 dist=$2
else
  ref=$(sample_clip flower_576x324_ref)
  dist=$(sample_clip flower_576x324_x264_crf22)
fi
results=${3:-${TMPDIR:-/tmp}/vmafsink-two-files.json}

source_of() {
  case "$1" in
    *.y4m) echo "filesrc location=$1 ! avdemux_yuv4mpegpipe" ;;
    *) echo "filesrc location=$1 ! decodebin ! videoconvert" ;;
  esac
}

gst-launch-1.0 -m \
  $(source_of "$ref") ! v.ref_sink \
  $(source_of "$dist") ! v.dist_sink \
  vmafsink name=v results-filename="$results" results-format=json | print_scores
echo "per-frame results: $results"
