#!/usr/bin/env bash
# A live measurement steered over its control socket and scraped by
# Prometheus: a live test source is encoded and scored, the element
# serves MCP on $XDG_RUNTIME_DIR/vmaf.sock and metrics on
# 127.0.0.1:PORT, and vmafctl reads the status, pauses and resumes while
# it runs. The live source runs until those steps are done (however long
# a loaded machine takes over them); the script then ends the stream
# with EOS, as Ctrl-C does to gst-launch-1.0 -e.
#
#   ./control-socket.sh [PORT]
set -euo pipefail
. "$(dirname "$0")/common.sh"

port=${1:-9466}
runtime=${XDG_RUNTIME_DIR:?set XDG_RUNTIME_DIR to a directory of yours (/run/user/$(id -u))}
sock=$runtime/vmaf.sock
vmafctl=${VMAFCTL:-$root/build/cmd/vmafctl/vmafctl}

gst-launch-1.0 -q -e \
  videotestsrc is-live=true pattern=ball ! \
    video/x-raw,format=I420,width=640,height=360,framerate=30/1 ! tee name=t \
  t. ! queue ! v.ref_sink \
  t. ! queue ! x264enc speed-preset=ultrafast bitrate=500 ! avdec_h264 ! v.dist_sink \
  vmafsink name=v mcp-uds="$sock" metrics-addr=127.0.0.1:"$port" &
pipeline=$!
trap 'kill $pipeline 2>/dev/null || true' EXIT

# The socket appears once the element is running (a minute's guard, in
# case the pipeline fails to start).
for _ in $(seq 600); do
  [ -S "$sock" ] && break
  kill -0 "$pipeline" 2>/dev/null || { wait "$pipeline"; exit 1; }
  sleep 0.1
done
"$vmafctl" -s "$sock" status
"$vmafctl" -s "$sock" pause -wait
"$vmafctl" -s "$sock" resume -wait
"$vmafctl" -s "$sock" watch -n 5
curl -sf "http://127.0.0.1:$port/metrics" | grep -E '^vmaf_(frames_scored_total|frames_skipped_total|last_score)'
kill -INT "$pipeline"
wait "$pipeline"
trap - EXIT
