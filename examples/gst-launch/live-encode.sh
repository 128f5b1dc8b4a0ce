#!/usr/bin/env bash
# Live-encode monitoring: one live source feeds a tee; the raw branch is
# the reference, an x264enc → avdec_h264 branch (default encoder latency)
# the distorted stream. Scores are printed as the frames come out.
#
#   ./live-encode.sh [FRAMES [x264enc options...]]
#
# e.g. ./live-encode.sh 300 bitrate=300 speed-preset=ultrafast
set -euo pipefail
. "$(dirname "$0")/common.sh"

frames=${1:-300}
shift || true

gst-launch-1.0 -m \
  videotestsrc is-live=true num-buffers="$frames" pattern=ball ! \
    video/x-raw,format=I420,width=640,height=360,framerate=30/1 ! tee name=t \
  t. ! queue ! v.ref_sink \
  t. ! queue ! x264enc "$@" ! avdec_h264 ! v.dist_sink \
  vmafsink name=v | print_scores
