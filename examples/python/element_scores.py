#!/usr/bin/python3
"""Scores a distorted file against its reference with the vmafsink element
from Python (GObject introspection) and reads what it posts on the bus:
every frame's score, the windows' statistics and the quality drops.

    GST_PLUGIN_PATH=build python3 examples/python/element_scores.py REF.y4m DIST [THRESHOLD]

DIST may be anything decodebin decodes to the reference's size. Prints
one line per frame, window and drop, then the pooled score; exits 1 on a
pipeline error.
"""
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def source(path):
    """A branch that decodes path: libav's demuxer for 8-bit y4m, decodebin otherwise."""
    if path.endswith(".y4m"):
        return f"filesrc location={path} ! avdemux_yuv4mpegpipe"
    return f"filesrc location={path} ! decodebin ! videoconvert ! video/x-raw,format=I420"


def main(ref, dist, threshold):
    Gst.init(None)
    pipeline = Gst.parse_launch(
        f"{source(ref)} ! v.ref_sink {source(dist)} ! v.dist_sink "
        f"vmafsink name=v window-frames=12 alert-threshold={threshold} alert-frames=1")
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    status = 0
    while True:
        msg = bus.timed_pop_filtered(Gst.CLOCK_TIME_NONE,
                                     Gst.MessageType.ELEMENT | Gst.MessageType.EOS | Gst.MessageType.ERROR)
        if msg.type == Gst.MessageType.EOS:
            break
        if msg.type == Gst.MessageType.ERROR:
            err, _ = msg.parse_error()
            print(f"error: {err.message}", file=sys.stderr)
            status = 1
            break
        s = msg.get_structure()
        if s.get_name() != "VMAF":
            continue
        kind = s.get_string("type")
        if kind == "frame":
            print(f"frame {s.get_value('index')}: {s.get_value('model')} {s.get_value('score'):.3f}")
        elif kind == "window":
            print(f"window {s.get_value('first')}-{s.get_value('last')}: mean {s.get_value('mean'):.3f}, "
                  f"min {s.get_value('min'):.3f}")
        elif kind == "alert":
            print(f"drop {s.get_value('id')} {s.get_string('state')}: frames {s.get_value('first')}-{s.get_value('last')}, "
                  f"min {s.get_value('min'):.3f} below {s.get_value('threshold')}")
        elif kind == "pooled":
            print(f"pooled: {s.get_value('frames-scored')} frames, {s.get_value('score'):.6f}")
    pipeline.set_state(Gst.State.NULL)
    return status


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 70))
