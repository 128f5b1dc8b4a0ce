"""Plays a vmafsink pipeline to EOS twice in a row, NULL in between, as an
application reusing its pipeline does, and prints every VMAF window, alert
and pooled message as "runN (element): STRUCTURE" for
element_analytics_test.go. Usage: analytics_host.py PIPELINE"""
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

Gst.init(None)


def play(pipeline, run):
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    while True:
        m = bus.timed_pop_filtered(60 * Gst.SECOND, Gst.MessageType.ELEMENT | Gst.MessageType.EOS | Gst.MessageType.ERROR)
        if m is None:
            print(f"run{run} timeout", flush=True)
            return False
        if m.type == Gst.MessageType.ERROR:
            err, _ = m.parse_error()
            print(f"run{run} error {err.message}", flush=True)
            return False
        if m.type == Gst.MessageType.EOS:
            print(f"run{run} eos", flush=True)
            return True
        s = m.get_structure()
        if s is not None and s.get_name() == "VMAF" and s.get_string("type") in ("window", "alert", "pooled"):
            print(f"run{run} (element): {s.to_string()}", flush=True)


def main():
    pipeline = Gst.parse_launch(sys.argv[1])
    ok = play(pipeline, 1)
    pipeline.set_state(Gst.State.NULL)
    ok = ok and play(pipeline, 2)
    pipeline.set_state(Gst.State.NULL)
    sys.exit(0 if ok else 1)


main()
