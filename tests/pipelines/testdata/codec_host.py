"""A Python host for vmafsink's reading of the distorted stream's codec
tags across streams: the distorted branch's own tags name x264; at its
tenth buffer a stream-start begins another stream (a new stream-id, or
with "same-stream" the same one) whose only tag is a container's (global)
encoder tag naming an encoder the model does not know. Prints every
warning the element posted and how the run ended, one fact a line.

usage: codec_host.py new-stream|same-stream MODEL
"""
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

CAPS = "video/x-raw,format=I420,width=160,height=120,framerate=30/1"


def main():
    case, model = sys.argv[1], sys.argv[2]
    Gst.init(None)
    p = Gst.parse_launch(
        f"videotestsrc num-buffers=20 pattern=ball ! {CAPS} ! tee name=t "
        "t. ! queue ! v.ref_sink "
        "t. ! queue ! taginject tags=encoder=x264 ! identity name=cut ! v.dist_sink "
        f"vmafsink name=v threads=1 frame-message=false model=path={model}")
    pad = p.get_by_name("cut").get_static_pad("src")
    buffers = [0]

    def probe(pad, info):
        buffers[0] += 1
        if buffers[0] != 10:
            return Gst.PadProbeReturn.OK
        sticky = {t: pad.get_sticky_event(t, 0) for t in
                  (Gst.EventType.STREAM_START, Gst.EventType.CAPS, Gst.EventType.SEGMENT)}
        sid = sticky[Gst.EventType.STREAM_START].parse_stream_start()
        if case == "new-stream":
            sid += "/next"
        pad.push_event(Gst.Event.new_stream_start(sid))
        pad.push_event(sticky[Gst.EventType.CAPS])
        pad.push_event(sticky[Gst.EventType.SEGMENT])
        tags = Gst.TagList.new_empty()
        tags.add_value(Gst.TagMergeMode.REPLACE, Gst.TAG_ENCODER, "MysteryEnc")
        tags.set_scope(Gst.TagScope.GLOBAL)
        pad.push_event(Gst.Event.new_tag(tags))
        print("pushed_stream_start=%s" % sid, flush=True)
        return Gst.PadProbeReturn.OK

    pad.add_probe(Gst.PadProbeType.BUFFER, probe)
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    warnings, end = [], "timeout"
    while True:
        m = bus.timed_pop_filtered(60 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR | Gst.MessageType.WARNING)
        if m is None:
            break
        if m.type == Gst.MessageType.WARNING:
            if m.src.get_name() == "v":
                warnings.append(m.parse_warning()[0].message.replace("\n", " "))
            continue
        end = "eos" if m.type == Gst.MessageType.EOS else "error: " + m.parse_error()[0].message
        break
    print("frames_scored=%d" % p.get_by_name("v").get_property("frames-scored"), flush=True)
    p.set_state(Gst.State.NULL)
    print("warnings=%d" % len(warnings))
    print("warning=%s" % " | ".join(warnings))
    print("end=%s" % end)


if __name__ == "__main__":
    main()
