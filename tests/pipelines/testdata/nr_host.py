"""Drives vmafsink in no-reference mode (no-reference=true, dist_sink
alone) as a GStreamer application does, through GObject introspection,
and prints what it saw as key=value lines for element_noref_test.go.
Usage: nr_host.py CASE DIST-FRAGMENT MODEL.onnx"""
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

Gst.init(None)
SEC = Gst.SECOND


def out(**kw):
    for k, v in kw.items():
        print(f"{k}={v}", flush=True)


class Bus:
    """Collects the VMAF messages and warnings seen while waiting."""

    def __init__(self, p):
        self.bus = p.get_bus()
        self.frames = []  # (timestamp, nr_metric_v1)
        self.windows = 0
        self.alerts = 0
        self.warnings = []
        self.pooled = None

    def until(self, types, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = self.bus.timed_pop_filtered(int(0.1 * SEC), types | Gst.MessageType.ERROR |
                                            Gst.MessageType.ELEMENT | Gst.MessageType.WARNING)
            if m is None:
                continue
            if m.type == Gst.MessageType.ELEMENT:
                s = m.get_structure()
                if s.get_name() == "VMAF":
                    kind = s.get_string("type")
                    if kind == "frame":
                        self.frames.append((s.get_value("timestamp"), s.get_value("nr_metric_v1")))
                    elif kind == "window":
                        self.windows += 1
                    elif kind == "alert":
                        self.alerts += 1
                    elif kind == "pooled":
                        self.pooled = s
                if not types & Gst.MessageType.ELEMENT:
                    continue
            if m.type == Gst.MessageType.WARNING:
                self.warnings.append(m.parse_warning()[0].message)
                continue
            if m.type == Gst.MessageType.ERROR and not types & Gst.MessageType.ERROR:
                out(error=m.parse_error()[0].message.replace("\n", " "))
                return None
            return m
        return None

    def frames_until(self, n, timeout):
        deadline = time.time() + timeout
        while len(self.frames) < n and time.time() < deadline:
            if self.until(Gst.MessageType.EOS, 0.1) is not None:
                # The stream may end in the same poll as the frames
                # counted: a fast machine scores the clip in one go.
                break
        return len(self.frames) >= n


def source(dist):
    # dist is a gst-launch fragment that plays the distorted clip.
    return f"{dist} ! v.dist_sink "


def sink(model, extra=""):
    return (f"vmafsink name=v no-reference=true model=path={model} threads=2 "
            f"window-frames=8 alert-threshold=100 alert-frames=2 {extra}")


def case_play(dist, model):
    # READY, PAUSED (prerolled by the distorted stream alone), PLAYING,
    # a flushing seek back to the start after 20 frames, EOS.
    p = Gst.parse_launch(source(dist) + sink(model))
    b = Bus(p)
    v = p.get_by_name("v")
    out(ref_linked=v.get_static_pad("ref_sink").is_linked())
    out(ready=p.set_state(Gst.State.READY).value_nick)
    p.set_state(Gst.State.PAUSED)
    out(async_done=b.until(Gst.MessageType.ASYNC_DONE, 60) is not None)
    ok, pos = p.query_position(Gst.Format.TIME)
    out(position_query=ok)
    caps = v.get_static_pad("dist_sink").get_current_caps().get_structure(0)
    ok, num, den = caps.get_fraction("framerate")
    out(fps_num=num, fps_den=den)
    p.set_state(Gst.State.PLAYING)
    out(before_seek=b.frames_until(20, 60))
    before = len(b.frames)
    # The stream may have ended before the seek, its EOS still queued:
    # the EOS that counts comes once frames from the start were scored.
    out(seek=p.seek_simple(Gst.Format.TIME, Gst.SeekFlags.FLUSH | Gst.SeekFlags.ACCURATE, 0))
    last = b.frames[-1][0] if b.frames else None
    m = b.until(Gst.MessageType.EOS, 120)
    while m is not None and not any(ts < last for ts, _ in b.frames[before:]):
        m = b.until(Gst.MessageType.EOS, 120)
    out(eos=m is not None)
    out(frames_before_seek=before, frames=len(b.frames), windows=b.windows, alerts=b.alerts,
        warnings=len(b.warnings), scored=v.get_property("frames-scored"))
    for w in b.warnings:
        out(warning=w.replace("\n", " "))
    for ts, score in b.frames:
        print(f"frame {ts} {score!r}", flush=True)
    if b.pooled is not None:
        out(pooled_scored=b.pooled.get_value("frames-scored"), pooled_unpaired_ref=b.pooled.get_value("frames-unpaired-ref"),
            pooled_unpaired_dist=b.pooled.get_value("frames-unpaired-dist"))
    out(null=p.set_state(Gst.State.NULL).value_nick)


def case_live(_dist, model):
    # A live source (a received stream) to EOS: nothing waits for ref_sink.
    p = Gst.parse_launch("videotestsrc is-live=true num-buffers=30 ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 "
                         "! v.dist_sink " + sink(model))
    # Twice: the element runs again from NULL, as GStreamer's own do.
    for run in ("first", "second"):
        b = Bus(p)
        p.set_state(Gst.State.PLAYING)
        out(**{run + "_eos": b.until(Gst.MessageType.EOS, 60) is not None, run + "_frames": len(b.frames),
               run + "_warnings": len(b.warnings)})
        for w in b.warnings:
            out(warning=w.replace("\n", " "))
        p.set_state(Gst.State.NULL)


def refused(desc):
    p = Gst.parse_launch(desc)
    b = Bus(p)
    ret = p.set_state(Gst.State.PAUSED)
    out(paused=ret.value_nick)
    m = b.until(Gst.MessageType.ERROR, 60)
    out(error=m.parse_error()[0].message.replace("\n", " ") if m is not None else "none")
    p.set_state(Gst.State.NULL)


def case_ref_linked(dist, model):
    refused("videotestsrc ! video/x-raw,format=I420,width=576,height=324 ! v.ref_sink " + source(dist) + sink(model))


def case_fr_model(dist, _model):
    refused(source(dist) + "vmafsink name=v no-reference=true")


def case_props(_dist, _model):
    v = Gst.ElementFactory.make("vmafsink", None)
    out(default_no_reference=v.get_property("no-reference"), default_tiny_threads=v.get_property("tiny-threads"),
        default_tiny_device=v.get_property("tiny-device"), default_verify=v.get_property("tiny-model-verify"),
        default_ort_library=v.get_property("ort-library"))
    v.set_property("no-reference", True)
    v.set_property("tiny-threads", 2)
    v.set_property("tiny-device", "cpu")
    v.set_property("tiny-model-verify", True)
    v.set_property("ort-library", "/nonexistent/libonnxruntime.so.1")
    out(no_reference=v.get_property("no-reference"), tiny_threads=v.get_property("tiny-threads"),
        tiny_device=v.get_property("tiny-device"), verify=v.get_property("tiny-model-verify"),
        ort_library=v.get_property("ort-library"))


CASES = {"play": case_play, "live": case_live, "ref-linked": case_ref_linked, "fr-model": case_fr_model,
         "props": case_props}

if __name__ == "__main__":
    CASES[sys.argv[1]](*sys.argv[2:])
