"""Drives vmafsink's step and QoS behaviour as GStreamer applications do,
through GObject introspection, and prints what it saw as key=value lines
for element_step_test.go. Usage: step_host.py CASE [ARG]"""
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

Gst.init(None)
SEC = Gst.SECOND
CAPS = "video/x-raw,format=I420,width=160,height=120,framerate=30/1"


def out(**kw):
    for k, v in kw.items():
        print(f"{k}={v}", flush=True)


class Bus:
    """Reads the bus in order, counting the element's frame messages."""

    def __init__(self, p):
        self.bus = p.get_bus()
        self.frames = 0

    def until(self, types, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = self.bus.timed_pop_filtered(int(0.1 * SEC), types | Gst.MessageType.ERROR | Gst.MessageType.ELEMENT)
            if m is None:
                continue
            if m.type == Gst.MessageType.ELEMENT:
                s = m.get_structure()
                if s.get_name() == "VMAF" and s.get_string("type") == "frame":
                    self.frames += 1
                continue
            if m.type == Gst.MessageType.ERROR:
                out(error=m.parse_error()[0].message.replace("\n", " "))
                return None
            return m
        return None


def case_step(fmt):
    # In PAUSED, steps of a few frames each (flushing, not intermediate,
    # as a frame-stepping player sends them): every STEP_DONE must come
    # once the stepped frames are scored, and no frame beyond them. The
    # sink prerolls again on the frame after the step, which has reached
    # the element (ref_sink's buffer count) but is not yet played.
    p = Gst.parse_launch(
        f"videotestsrc num-buffers=200 ! {CAPS} ! v.ref_sink "
        f"videotestsrc num-buffers=200 pattern=ball ! {CAPS} ! v.dist_sink "
        "vmafsink name=v frame-message=true")
    ref_buffers = [0]

    def probe(pad, info):
        ref_buffers[0] += 1
        return Gst.PadProbeReturn.OK

    p.get_by_name("v").get_static_pad("ref_sink").add_probe(Gst.PadProbeType.BUFFER, probe)
    bus = Bus(p)
    p.set_state(Gst.State.PAUSED)
    out(prerolled=bus.until(Gst.MessageType.ASYNC_DONE, 60) is not None)
    amounts = [1, 3, 5, 10] if fmt == "buffers" else [100, 200, 300]
    done, scored, stepped, srcs = [], [], [], []
    for a in amounts:
        if fmt == "buffers":
            ev = Gst.Event.new_step(Gst.Format.BUFFERS, a, 1.0, True, False)
        else:
            ev = Gst.Event.new_step(Gst.Format.TIME, a * Gst.MSECOND, 1.0, True, False)
        p.send_event(ev)
        m = bus.until(Gst.MessageType.STEP_DONE, 60)
        done.append(m is not None)
        if m is None:
            break
        scored.append(bus.frames)
        stepped.append(ref_buffers[0] - 1)
        srcs.append(m.src.get_name())
        # The sink prerolls again on the frame after the step.
        bus.until(Gst.MessageType.ASYNC_DONE, 60)
    out(steps_done=",".join(str(d) for d in done), scored=",".join(map(str, scored)),
        stepped=",".join(map(str, stepped)), step_done_from=",".join(sorted(set(srcs))))
    p.set_state(Gst.State.NULL)


def case_qos_drop(_):
    # Sources far faster than one scoring thread at 1280x720, with
    # backpressure=drop: pairs are dropped, and each drop is a QoS message
    # from the element, as a sink posts for each buffer it drops.
    c = "video/x-raw,format=I420,width=1280,height=720,framerate=30/1"
    p = Gst.parse_launch(
        f"videotestsrc num-buffers=120 ! {c} ! v.ref_sink "
        f"videotestsrc num-buffers=120 pattern=ball ! {c} ! v.dist_sink "
        "vmafsink name=v frame-message=false threads=1 backpressure=drop")
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    qos, pooled = [], None
    deadline = time.time() + 90
    while time.time() < deadline:
        m = bus.timed_pop_filtered(int(0.1 * SEC), Gst.MessageType.QOS | Gst.MessageType.ELEMENT
                                   | Gst.MessageType.EOS | Gst.MessageType.ERROR)
        if m is None:
            continue
        if m.type == Gst.MessageType.QOS and m.src.get_name() == "v":
            qos.append(m)
        elif m.type == Gst.MessageType.ELEMENT:
            s = m.get_structure()
            if s.get_name() == "VMAF" and s.get_string("type") == "pooled":
                pooled = s
        elif m.type == Gst.MessageType.ERROR:
            out(error=m.parse_error()[0].message)
            break
        elif m.type == Gst.MessageType.EOS:
            break
    out(qos=len(qos))
    if qos:
        fmt, processed, dropped = qos[-1].parse_qos_stats()
        out(qos_format=fmt.value_nick, last_dropped=dropped, last_processed=processed,
            dropped_counts_up=all(q.parse_qos_stats()[2] == i + 1 for i, q in enumerate(qos)),
            has_timestamp=qos[-1].parse_qos()[3] != Gst.CLOCK_TIME_NONE)
    if pooled is not None:
        out(pooled_dropped=pooled.get_value("frames-dropped"), pooled_scored=pooled.get_value("frames-scored"))
    p.set_state(Gst.State.NULL)


CASES = {
    "step": case_step,
    "qos-drop": case_qos_drop,
}

if __name__ == "__main__":
    CASES[sys.argv[1]](sys.argv[2] if len(sys.argv) > 2 else "")
