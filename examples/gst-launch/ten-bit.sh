#!/usr/bin/env bash
# Scores 10-bit video with the element: the sample 10-bit pair (1280x720
# 4:2:0) as raw frames read by rawvideoparse, which takes any of the
# element's formats (I420_10LE here; i422-10le, y444-10le, ... too).
#
#   ./ten-bit.sh [REFERENCE.y4m DISTORTED.y4m WIDTH HEIGHT]
#
# Debian 12's libav y4m demuxer crashes on 10-bit Y4M and GStreamer 1.22's
# y4mdec does not take it, so the Y4M files are first unwrapped to raw
# frames with ffmpeg (a 10-bit encode in MKV or MP4 goes through decodebin
# instead, as in encoded-vs-source.sh).
set -euo pipefail
. "$(dirname "$0")/common.sh"

if [ $# -ge 4 ]; then
  ref=$1 dist=$2 width=$3 height=$4
else
  ref=$(sample_clip rain_1280x720_ref)
  dist=$(sample_clip rain_1280x720_x265_crf30)
  width=1280 height=720
fi
raw_ref=$sample_dir/ten-bit-ref.yuv raw_dist=$sample_dir/ten-bit-dist.yuv
ffmpeg -loglevel error -y -i "$ref" -pix_fmt yuv420p10le -f rawvideo "$raw_ref"
ffmpeg -loglevel error -y -i "$dist" -pix_fmt yuv420p10le -f rawvideo "$raw_dist"

parse="rawvideoparse width=$width height=$height format=i420-10le framerate=24/1"
gst-launch-1.0 -m \
  filesrc location="$raw_ref" ! $parse ! v.ref_sink \
  filesrc location="$raw_dist" ! $parse ! v.dist_sink \
  vmafsink name=v | print_scores
