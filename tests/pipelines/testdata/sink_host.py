"""Drives vmafsink as a GStreamer application does, through GObject
introspection, and prints what it saw as key=value lines for
element_sink_test.go. Usage: sink_host.py CASE REF.y4m DIST.y4m"""
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


def wait(bus, types, timeout):
    """The first message of the given types within timeout seconds."""
    m = bus.timed_pop_filtered(int(timeout * SEC), types | Gst.MessageType.ERROR)
    if m is not None and m.type == Gst.MessageType.ERROR and not types & Gst.MessageType.ERROR:
        err, dbg = m.parse_error()
        out(error=err.message)
        return None
    return m


def pooled(bus, timeout):
    """The VMAF pooled message, then EOS, within timeout seconds."""
    deadline = time.time() + timeout
    got = None
    while time.time() < deadline:
        m = bus.timed_pop_filtered(int(0.1 * SEC), Gst.MessageType.ELEMENT | Gst.MessageType.EOS | Gst.MessageType.ERROR)
        if m is None:
            continue
        if m.type == Gst.MessageType.ERROR:
            out(error=m.parse_error()[0].message)
            return got, False
        if m.type == Gst.MessageType.EOS:
            return got, True
        s = m.get_structure()
        if s.get_name() == "VMAF" and s.get_string("type") == "pooled":
            got = s
    return got, False


def field(pooled_msg, name):
    """A field of the pooled message, -1 without one."""
    return pooled_msg.get_value(name) if pooled_msg else -1


def files(ref, dist):
    return (f"filesrc location={ref} ! decodebin ! videoconvert ! video/x-raw,format=I420 ! v.ref_sink "
            f"filesrc location={dist} ! decodebin ! videoconvert ! video/x-raw,format=I420 ! v.dist_sink ")


def case_paused(ref, dist):
    p = Gst.parse_launch(files(ref, dist) + "vmafsink name=v frame-message=false")
    bus = p.get_bus()
    ret = p.set_state(Gst.State.PAUSED)
    out(paused_return=ret.value_nick)
    m = wait(bus, Gst.MessageType.ASYNC_DONE, 60)
    out(async_done=m is not None)
    time.sleep(1)
    out(scored_paused=p.get_by_name("v").get_property("frames-scored"))
    p.set_state(Gst.State.PLAYING)
    s, eos = pooled(bus, 60)
    out(eos=eos, scored_end=field(s, "frames-scored"))
    p.set_state(Gst.State.NULL)


def case_long_pause(ref, dist):
    # Two independent sources, held PAUSED longer than the element's
    # waits for a partner last: no frame may be lost to the pause.
    p = Gst.parse_launch(
        "videotestsrc num-buffers=60 ! " + CAPS + " ! v.ref_sink "
        "videotestsrc num-buffers=60 pattern=ball ! " + CAPS + " ! v.dist_sink "
        "vmafsink name=v frame-message=false max-pending=4")
    bus = p.get_bus()
    p.set_state(Gst.State.PAUSED)
    out(prerolled=wait(bus, Gst.MessageType.ASYNC_DONE, 60) is not None)
    time.sleep(2.5)
    p.set_state(Gst.State.PLAYING)
    s, eos = pooled(bus, 60)
    out(eos=eos, scored=field(s, "frames-scored"),
        unpaired_ref=field(s, "frames-unpaired-ref"),
        unpaired_dist=field(s, "frames-unpaired-dist"))
    p.set_state(Gst.State.NULL)


# The stream is the source's first SEEK_FRAMES frames: the seek's stop,
# half a frame before the end, ends it. (num-buffers would not: it counts
# the frames the source made before the seek too, as many as the queues
# took, which varies.)
SEEK_FRAMES = 90
SEEK_TO = 2 * SEC


def seek_pipeline():
    return Gst.parse_launch(
        "videotestsrc ! " + CAPS + " ! tee name=t "
        "t. ! queue name=rq ! v.ref_sink t. ! queue name=dq ! videobalance saturation=0.5 ! v.dist_sink "
        "vmafsink name=v frame-message=false")


def seek_paused(p):
    """Prerolls p, seeks it to SEEK_TO while PAUSED and plays it to EOS."""
    bus = p.get_bus()
    p.set_state(Gst.State.PAUSED)
    out(prerolled=wait(bus, Gst.MessageType.ASYNC_DONE, 60) is not None)
    fps = Gst.Caps.from_string(CAPS).get_structure(0).get_fraction("framerate")
    num, den = fps.value_numerator, fps.value_denominator
    stop = (2 * SEEK_FRAMES - 1) * SEC * den // (2 * num)
    ok = p.seek(1.0, Gst.Format.TIME, Gst.SeekFlags.FLUSH | Gst.SeekFlags.ACCURATE,
                Gst.SeekType.SET, SEEK_TO, Gst.SeekType.SET, stop)
    out(seek=ok)
    out(seek_async_done=wait(bus, Gst.MessageType.ASYNC_DONE, 60) is not None)
    # As a player polls it: the sink answers once it has the new segment's
    # first frame, which ASYNC_DONE does not always wait for.
    found, pos = False, -1
    deadline = time.time() + 60  # a guard against a hang, not a speed
    while time.time() < deadline:
        found, pos = p.query_position(Gst.Format.TIME)
        if found:
            break
        time.sleep(0.02)
    out(position_ms=pos // Gst.MSECOND if found else -1)
    p.set_state(Gst.State.PLAYING)
    s, eos = pooled(bus, 60)
    out(eos=eos, scored_after_seek=field(s, "frames-scored"),
        unpaired_ref=field(s, "frames-unpaired-ref"), unpaired_dist=field(s, "frames-unpaired-dist"),
        seek_ns=SEEK_TO, stop_ns=stop, fps_n=num, fps_d=den)
    p.set_state(Gst.State.NULL)


def case_seek(ref, dist):
    seek_paused(seek_pipeline())


def case_seek_dist_first(ref, dist):
    # The distorted frame 0 reaches the element before the reference frame
    # 0, which the inner sink then prerolls: the reference branch is held
    # until the distorted thread brings frame 1, so frame 0 has been
    # through dist_sink by then. The flushing seek discards the prerolled
    # reference frame unplayed; its pair must not be scored.
    p = seek_pipeline()
    rq = p.get_by_name("rq").get_static_pad("src")
    block = rq.add_probe(Gst.PadProbeType.BLOCK | Gst.PadProbeType.BUFFER,
                         lambda pad, info: Gst.PadProbeReturn.OK)
    seen = [0]

    def dist_buffer(pad, info):
        seen[0] += 1
        if seen[0] == 2:
            rq.remove_probe(block)
            return Gst.PadProbeReturn.REMOVE
        return Gst.PadProbeReturn.OK

    p.get_by_name("v").get_static_pad("dist_sink").add_probe(Gst.PadProbeType.BUFFER, dist_buffer)
    seek_paused(p)


def case_ref_ends(ref, dist):
    # The reference ends after 6 frames; the distorted stream never ends.
    p = Gst.parse_launch(
        "videotestsrc num-buffers=6 ! " + CAPS + " ! v.ref_sink "
        "videotestsrc pattern=ball ! " + CAPS + " ! v.dist_sink "
        "vmafsink name=v frame-message=false")
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    s, eos = pooled(bus, 60)
    out(eos=eos, scored=field(s, "frames-scored"),
        unpaired_dist=field(s, "frames-unpaired-dist"))
    p.set_state(Gst.State.NULL)


def case_one_linked(ref, dist):
    p = Gst.Pipeline.new()
    src = Gst.ElementFactory.make("videotestsrc")
    src.set_property("num-buffers", 10)
    caps = Gst.ElementFactory.make("capsfilter")
    caps.set_property("caps", Gst.Caps.from_string(CAPS))
    v = Gst.ElementFactory.make("vmafsink", "v")
    v.set_property("frame-message", False)
    for e in (src, caps, v):
        p.add(e)
    src.link(caps)
    caps.get_static_pad("src").link(v.get_static_pad("ref_sink"))
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    s, eos = pooled(bus, 60)
    out(eos=eos, unpaired_ref=field(s, "frames-unpaired-ref"))
    p.set_state(Gst.State.NULL)


def case_latency(ref, dist):
    p = Gst.parse_launch(
        "videotestsrc is-live=true ! " + CAPS + " ! tee name=t "
        "t. ! queue ! v.ref_sink "
        "t. ! queue ! x264enc speed-preset=ultrafast key-int-max=30 ! avdec_h264 ! videoconvert ! "
        "video/x-raw,format=I420 ! queue ! v.dist_sink "
        "vmafsink name=v frame-message=false")
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    wait(bus, Gst.MessageType.ASYNC_DONE, 60)
    time.sleep(0.5)
    q = Gst.Query.new_latency()
    ok = p.get_by_name("v").query(q)
    live, lo, hi = q.parse_latency()
    # Each branch on its own, from the pads' peers.
    mins = []
    for name in ("ref_sink", "dist_sink"):
        bq = Gst.Query.new_latency()
        p.get_by_name("v").get_static_pad(name).peer_query(bq)
        mins.append(bq.parse_latency()[1] // Gst.MSECOND)
    out(latency_ok=ok, live=live, min_ms=lo // Gst.MSECOND, ref_min_ms=mins[0], dist_min_ms=mins[1])
    p.set_state(Gst.State.NULL)


def case_props(ref, dist):
    p = Gst.parse_launch(files(ref, dist) + "vmafsink name=v frame-message=false")
    v = p.get_by_name("v")
    out(type_name=type(v).__gtype__.name)
    ready, playing = Gst.PARAM_MUTABLE_READY, Gst.PARAM_MUTABLE_PLAYING
    flags = {n: v.find_property(n).flags for n in ("psnr", "model", "pause-mode", "frame-message")}
    out(psnr_ready=bool(flags["psnr"] & ready), model_ready=bool(flags["model"] & ready),
        pause_mode_playing=bool(flags["pause-mode"] & playing),
        frame_message_playing=bool(flags["frame-message"] & playing))
    notified = []
    v.connect("notify::frames-scored", lambda obj, spec: notified.append(obj.get_property("frames-scored")))
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    wait(bus, Gst.MessageType.ASYNC_DONE, 60)
    v.set_property("psnr", True)
    m = wait(bus, Gst.MessageType.WARNING, 60)
    out(late_warning=m.parse_warning()[0].message if m else "none")
    s, eos = pooled(bus, 60)
    out(eos=eos, notifies=len(notified), last_notified=notified[-1] if notified else -1,
        scored=field(s, "frames-scored"))
    p.set_state(Gst.State.NULL)


def case_features(ref, dist):
    # Extra metrics requested in libvmaf's --feature grammar, beside the
    # psnr property, whose request the features property's replaces.
    import json
    import os
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), "scores.json")
    p = Gst.parse_launch(files(ref, dist) + f"vmafsink name=v psnr=true results-filename={path}")
    v = p.get_by_name("v")
    v.set_property("features", "cambi=full_ref=true; ciede;psnr=enable_chroma=false:enable_apsnr=true")
    out(features=v.get_property("features"))
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    frames, got, pooled_msg, eos = 0, {}, None, False
    deadline = time.time() + 60
    while time.time() < deadline and not eos:
        m = bus.timed_pop_filtered(int(0.1 * SEC), Gst.MessageType.ELEMENT | Gst.MessageType.EOS | Gst.MessageType.ERROR)
        if m is None:
            continue
        if m.type == Gst.MessageType.ERROR:
            out(error=m.parse_error()[0].message)
            break
        if m.type == Gst.MessageType.EOS:
            eos = True
            break
        s = m.get_structure()
        if s.get_name() != "VMAF":
            continue
        if s.get_string("type") == "pooled":
            pooled_msg = s
            continue
        frames += 1
        for f in ("cambi", "cambi_full_reference", "cambi_source", "ciede2000", "psnr_y", "psnr-y", "psnr_cb", "vmaf"):
            ok, val = s.get_double(f)
            if ok:
                got[f] = got.get(f, 0) + 1
    p.set_state(Gst.State.NULL)
    out(eos=eos, frames=frames)
    for f in ("cambi", "cambi_full_reference", "cambi_source", "ciede2000", "psnr_y", "psnr-y", "psnr_cb", "vmaf"):
        out(**{"with_" + ("psnr_y_alias" if f == "psnr-y" else f): got.get(f, 0)})
    for f in ("ciede2000-mean", "cambi_full_reference-mean", "psnr_y-mean", "apsnr_y", "psnr_cb-mean"):
        ok, val = pooled_msg.get_double(f) if pooled_msg else (False, 0)
        out(**{"pooled_" + f.replace("-", "_"): round(val, 6) if ok else "none"})
    with open(path) as fh:
        doc = json.load(fh)
    fm = doc["frames"]
    out(file_frames=len(fm),
        file_ciede=sum(1 for f in fm if "ciede2000" in f["metrics"]),
        file_cambi=sum(1 for f in fm if "cambi_full_reference" in f["metrics"]),
        file_apsnr_y=round(doc.get("aggregate_metrics", {}).get("apsnr_y", -1), 6),
        file_ciede_mean=round(doc["pooled_metrics"]["ciede2000"]["mean"], 6))


def case_bad_features(ref, dist):
    # A request the engine refuses: a warning when set, a settings error
    # at start, and the pipeline neither starts nor hangs.
    for factory in ("vmafsink", "vmafpass"):
        spec = Gst.ElementFactory.make(factory).find_property("features")
        out(**{factory + "_features_ready": bool(spec.flags & Gst.PARAM_MUTABLE_READY)})
    p = Gst.parse_launch(files(ref, dist) + "vmafsink name=v frame-message=false")
    v = p.get_by_name("v")
    bus = p.get_bus()
    v.set_property("features", "ciede;cambi=bogus=1")
    m = wait(bus, Gst.MessageType.WARNING, 60)
    out(set_warning=m.parse_warning()[0].message if m else "none")
    ret = p.set_state(Gst.State.PLAYING)
    out(start_return=ret.value_nick)
    m = wait(bus, Gst.MessageType.ERROR, 60)
    if m:
        err, dbg = m.parse_error()
        out(start_error=err.message, start_error_domain=err.domain)
    else:
        out(start_error="none")
    t0 = time.time()
    p.set_state(Gst.State.NULL)
    out(null_seconds=round(time.time() - t0, 1))
    # The same element starts once the request is fixed.
    v.set_property("features", "ciede")
    p.set_state(Gst.State.PLAYING)
    s, eos = pooled(bus, 60)
    out(fixed_eos=eos, fixed_scored=field(s, "frames-scored"),
        fixed_ciede=s.has_field("ciede2000-mean") if s else False)
    p.set_state(Gst.State.NULL)

CASES = {
    "props": case_props,
    "paused": case_paused,
    "long-pause": case_long_pause,
    "seek": case_seek,
    "seek-dist-first": case_seek_dist_first,
    "ref-ends": case_ref_ends,
    "one-linked": case_one_linked,
    "latency": case_latency,
    "features": case_features,
    "bad-features": case_bad_features,
}

if __name__ == "__main__":
    CASES[sys.argv[1]](*sys.argv[2:4])
