#!/usr/bin/python3
"""Resident memory of a GStreamer host around vmafsink runs: before, at
EOS and after the pipeline is set to NULL, for RUNS runs one after
another in one process, and the process's peak so far. A learned
feature's memory (LPIPS on 1080p pictures takes gigabytes) should be
needed only while a run scores.

    GST_PLUGIN_PATH=$PWD/build scripts/bench-model-memory.py [FEATURES [WIDTHxHEIGHT [FRAMES [RUNS]]]]

FEATURES is the element's features property (default lpips, whose model
the element finds in $VMAF_MODELS/tiny), the size defaults to 1920x1080,
FRAMES to 8 and RUNS to 2.
"""
import resource
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst


def rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    return -1


def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def main(argv):
    features = argv[1] if len(argv) > 1 else "lpips"
    width, height = (argv[2] if len(argv) > 2 else "1920x1080").split("x")
    frames = int(argv[3]) if len(argv) > 3 else 8
    runs = int(argv[4]) if len(argv) > 4 else 2
    Gst.init(None)
    caps = f"video/x-raw,format=I420,width={width},height={height},framerate=25/1"
    desc = (f"videotestsrc num-buffers={frames} pattern=smpte ! {caps} ! v.ref_sink "
            f"videotestsrc num-buffers={frames} pattern=ball ! {caps} ! v.dist_sink "
            f"vmafsink name=v features={features} results-format=none")
    print(f"features={features} {width}x{height} frames={frames}")
    print(f"start: {rss_mib()} MiB")
    for run in range(runs):
        pipeline = Gst.parse_launch(desc)
        pipeline.set_state(Gst.State.PLAYING)
        msg = pipeline.get_bus().timed_pop_filtered(Gst.CLOCK_TIME_NONE, Gst.MessageType.EOS | Gst.MessageType.ERROR)
        if msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            pipeline.set_state(Gst.State.NULL)
            sys.exit(f"run {run}: {err.message} ({debug})")
        print(f"run {run} at EOS: {rss_mib()} MiB")
        pipeline.set_state(Gst.State.NULL)
        del pipeline
        print(f"run {run} after NULL: {rss_mib()} MiB (peak so far {peak_mib()} MiB)")


if __name__ == "__main__":
    main(sys.argv)
