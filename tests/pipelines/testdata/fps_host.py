"""Drives vmafsink with two streams of different frame rates as a
GStreamer application does, through GObject introspection, and prints
every frame's VMAF and the warnings seen as lines for element_fps_test.go.
Usage: fps_host.py REF.y4m DIST.y4m FPS   (FPS as N/D, or "none")"""
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

Gst.init(None)


def main():
    ref, dist, fps = sys.argv[1:4]
    p = Gst.parse_launch(
        "vmafsink name=v threads=2 "
        f"filesrc location={ref} ! avdemux_yuv4mpegpipe ! v.ref_sink "
        f"filesrc location={dist} ! avdemux_yuv4mpegpipe ! v.dist_sink")
    v = p.get_by_name("v")
    if fps != "none":
        # A GstFraction from its text: Gst.Fraction needs gst-python's
        # overrides, which plain GI does not have.
        Gst.util_set_object_arg(v, "fps", fps)
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    warnings = 0
    while True:
        # Waits on the bus's own state: the end of the stream or an error.
        m = bus.timed_pop_filtered(Gst.CLOCK_TIME_NONE, Gst.MessageType.EOS | Gst.MessageType.ERROR |
                                   Gst.MessageType.ELEMENT | Gst.MessageType.WARNING)
        if m.type == Gst.MessageType.EOS:
            print("eos=True")
            break
        if m.type == Gst.MessageType.ERROR:
            print("error=" + m.parse_error()[0].message.replace("\n", " "))
            break
        if m.type == Gst.MessageType.WARNING:
            warnings += 1
            err, debug = m.parse_warning()
            print("warning: " + err.message.replace("\n", " ") + " | " + (debug or "").replace("\n", " "))
            continue
        s = m.get_structure()
        if s.get_name() == "VMAF" and s.get_string("type") == "frame":
            print(f"frame {s.get_value('index')} {s.get_value('vmaf')!r}")
    print(f"warnings={warnings}")
    p.set_state(Gst.State.NULL)


main()
