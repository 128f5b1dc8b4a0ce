"""Drives vmafsink and vmafpass as GStreamer applications do, through
GObject introspection, and prints what it saw as key=value lines for
element_app_test.go. Usage: app_host.py CASE [ARG]"""
import os
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


def until(bus, types, timeout):
    """The first message of the given types, or an error, within timeout
    seconds; the VMAF pooled message's frames-scored as seen on the way."""
    deadline = time.time() + timeout
    scored = -1
    while time.time() < deadline:
        m = bus.timed_pop_filtered(int(0.1 * SEC), types | Gst.MessageType.ERROR | Gst.MessageType.ELEMENT)
        if m is None:
            continue
        if m.type == Gst.MessageType.ELEMENT:
            s = m.get_structure()
            if s.get_name() == "VMAF" and s.get_string("type") == "pooled":
                scored = s.get_value("frames-scored")
            if not types & Gst.MessageType.ELEMENT:
                continue
        if m.type == Gst.MessageType.ERROR and not types & Gst.MessageType.ERROR:
            err, dbg = m.parse_error()
            out(error=err.message.replace("\n", " "))
            return None, scored
        return m, scored
    return None, scored


def tail(factory):
    if factory == "vmafpass":
        return "vmafpass name=v frame-message=false ! fakesink name=out"
    return "vmafsink name=v frame-message=false"


def tee(factory, src="videotestsrc"):
    return (f"{src} ! {CAPS} ! tee name=t t. ! queue ! v.ref_sink "
            f"t. ! queue ! videobalance saturation=0.5 ! v.dist_sink {tail(factory)}")


def segment_seek(p, stop_s):
    """A flushing seek to 0 that stops at stop_s seconds."""
    return p.seek(1.0, Gst.Format.TIME, Gst.SeekFlags.FLUSH | Gst.SeekFlags.ACCURATE,
                  Gst.SeekType.SET, 0, Gst.SeekType.SET, int(stop_s * SEC))


def play_first_second(p, bus):
    """Prerolls p, plays its first second to EOS (a segment seek) and
    returns the EOS message (None if none came) and the frames scored."""
    p.set_state(Gst.State.PAUSED)
    until(bus, Gst.MessageType.ASYNC_DONE, 60)
    segment_seek(p, 1)
    until(bus, Gst.MessageType.ASYNC_DONE, 60)
    p.set_state(Gst.State.PLAYING)
    return until(bus, Gst.MessageType.EOS, 60)


def case_seek_after_eos(factory):
    # Play one second to EOS, then seek back with a flushing seek: the
    # element prerolls again and plays to a second EOS, scoring again.
    p = Gst.parse_launch(tee(factory))
    bus = p.get_bus()
    m, first = play_first_second(p, bus)
    out(first_eos=m is not None, first_scored=first)
    out(seek=segment_seek(p, 1))
    m, _ = until(bus, Gst.MessageType.ASYNC_DONE, 60)
    out(async_done=m is not None)
    m, second = until(bus, Gst.MessageType.EOS, 60)
    out(second_eos=m is not None, second_scored=second)
    p.set_state(Gst.State.NULL)


def case_worst_seek(tmp):
    # worst-dir across a flushing seek after EOS: the second pass is made
    # worse (lower contrast), so its frames are the worst at the second
    # EOS, and the directory must then hold their pictures only.
    wdir, results = os.path.join(tmp, "worst"), os.path.join(tmp, "results.json")
    p = Gst.parse_launch(
        f"videotestsrc pattern=ball ! {CAPS} ! tee name=t t. ! queue ! v.ref_sink "
        f"t. ! queue ! videobalance name=bal ! v.dist_sink "
        f"vmafsink name=v frame-message=false worst-frames=2 worst-dir={wdir} results-filename={results}")
    bus = p.get_bus()
    m, first = play_first_second(p, bus)
    out(first_eos=m is not None, first_scored=first, first_files=",".join(sorted(os.listdir(wdir))))
    p.get_by_name("bal").set_property("contrast", 0.5)
    out(seek=segment_seek(p, 1))
    until(bus, Gst.MessageType.ASYNC_DONE, 60)
    m, second = until(bus, Gst.MessageType.EOS, 60)
    out(second_eos=m is not None, second_scored=second, second_files=",".join(sorted(os.listdir(wdir))))
    p.set_state(Gst.State.NULL)


def case_pass_caps(which):
    # vmafpass between an unconstrained source and a downstream that
    # wants one format: ref_sink answers caps queries as src's peer does.
    down = {"capsfilter": "video/x-raw,format=Y444 ! fakesink",
            "x264enc": "video/x-raw,format=Y444 ! x264enc speed-preset=ultrafast ! fakesink"}[which]
    p = Gst.parse_launch(
        "videotestsrc num-buffers=20 ! video/x-raw,width=160,height=120,framerate=30/1 ! tee name=t "
        "t. ! queue name=refq ! v.ref_sink t. ! queue ! v.dist_sink "
        "vmafpass name=v frame-message=false ! " + down)
    v = p.get_by_name("v")
    ref_sink, src = v.get_static_pad("ref_sink"), v.get_static_pad("src")
    alloc_caps = Gst.Caps.from_string("video/x-raw,format=Y444,width=160,height=120,framerate=30/1")
    alloc = {}

    def ask_allocation(pad, info):
        # An allocation query is serialized: it travels with the data, on
        # the streaming thread, as upstream sends it before its first
        # buffer. Sent from the application thread it would wait for
        # ref_sink's stream lock, which the streaming thread holds for as
        # long as its buffer waits in the sink's preroll downstream (at
        # identity as much as here): in PAUSED, for good.
        q1, q2 = Gst.Query.new_allocation(alloc_caps, True), Gst.Query.new_allocation(alloc_caps, True)
        r1 = pad.peer_query(q1)  # ref_sink
        r2 = src.peer_query(q2)
        alloc["answered"] = r1
        alloc["same"] = ((r1, q1.get_n_allocation_metas(), q1.get_n_allocation_pools()) ==
                         (r2, q2.get_n_allocation_metas(), q2.get_n_allocation_pools()))
        return Gst.PadProbeReturn.REMOVE

    p.get_by_name("refq").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, ask_allocation)
    bus = p.get_bus()
    p.set_state(Gst.State.PAUSED)
    m, _ = until(bus, Gst.MessageType.ASYNC_DONE, 60)
    out(prerolled=m is not None)
    # Prerolled: the reference's streaming thread is held in the sink's
    # preroll with the buffer it pushed through vmafpass. The queries an
    # application sends from its own thread are answered all the same.
    caps = ref_sink.query_caps(None)
    out(ref_formats=",".join(sorted({s.get_string("format") or "" for s in (caps.get_structure(i) for i in range(caps.get_size()))})))
    out(alloc_answered=alloc.get("answered"), alloc_same=alloc.get("same"))
    ok = ref_sink.query_accept_caps(
        Gst.Caps.from_string("video/x-raw,format=I420,width=160,height=120,framerate=30/1"))
    out(accepts_i420=ok)
    p.set_state(Gst.State.PLAYING)
    m, scored = until(bus, Gst.MessageType.EOS, 60)
    out(eos=m is not None, scored=scored)
    p.set_state(Gst.State.NULL)


def case_pass_held_query(route):
    # A serialized query an application thread sends to ref_sink while
    # the reference is held in preroll waits for the streaming thread, as
    # at the sink pad of any element that pushes downstream from its
    # chain function. The element lets it go when the pipeline moves on
    # to PLAYING (its streaming thread then leaves the pad between
    # buffers, and for good at EOS) or is stopped (NULL flushes it out).
    import threading
    p = Gst.parse_launch(
        "videotestsrc num-buffers=20 ! " + CAPS + " ! tee name=t t. ! queue ! v.ref_sink t. ! queue ! v.dist_sink "
        "vmafpass name=v frame-message=false ! fakesink")
    ref_sink = p.get_by_name("v").get_static_pad("ref_sink")
    bus = p.get_bus()
    p.set_state(Gst.State.PAUSED)
    m, _ = until(bus, Gst.MessageType.ASYNC_DONE, 60)
    out(prerolled=m is not None)
    answered = threading.Event()

    def ask():
        ref_sink.query(Gst.Query.new_allocation(Gst.Caps.from_string(CAPS), True))
        answered.set()

    threading.Thread(target=ask, daemon=True).start()
    if route == "playing":
        p.set_state(Gst.State.PLAYING)
        m, scored = until(bus, Gst.MessageType.EOS, 60)
        out(eos=m is not None, scored=scored)
    else:
        p.set_state(Gst.State.NULL)
    out(query_returned=answered.wait(60))
    p.set_state(Gst.State.NULL)


def case_pass_events(_):
    # Only the reference branch's events leave src: one stream-start, and
    # no tag of the distorted branch.
    p = Gst.parse_launch(
        "videotestsrc num-buffers=10 ! " + CAPS + " ! taginject tags=\"title=reference\" ! v.ref_sink "
        "videotestsrc num-buffers=10 pattern=ball ! " + CAPS + " ! taginject tags=\"title=distorted\" ! v.dist_sink "
        "vmafpass name=v frame-message=false ! fakesink name=out")
    seen = {"stream-start": 0, "titles": [], "segment": 0, "caps": 0}

    def probe(pad, info):
        ev = info.get_event()
        t = ev.type
        if t == Gst.EventType.STREAM_START:
            seen["stream-start"] += 1
        elif t == Gst.EventType.SEGMENT:
            seen["segment"] += 1
        elif t == Gst.EventType.CAPS:
            seen["caps"] += 1
        elif t == Gst.EventType.TAG:
            ok, title = ev.parse_tag().get_string("title")
            if ok:
                seen["titles"].append(title)
        return Gst.PadProbeReturn.OK

    p.get_by_name("out").get_static_pad("sink").add_probe(Gst.PadProbeType.EVENT_DOWNSTREAM, probe)
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    m, scored = until(bus, Gst.MessageType.EOS, 60)
    out(eos=m is not None, stream_starts=seen["stream-start"], segments=seen["segment"], caps_events=seen["caps"],
        titles=",".join(sorted(set(seen["titles"]))))
    p.set_state(Gst.State.NULL)


def case_pass_dist_ends(_):
    # The distorted stream ends after 60 frames, the reference after 90:
    # all 90 reference frames reach downstream.
    p = Gst.parse_launch(
        "videotestsrc num-buffers=90 ! " + CAPS + " ! v.ref_sink "
        "videotestsrc num-buffers=60 pattern=ball ! " + CAPS + " ! v.dist_sink "
        "vmafpass name=v frame-message=false ! fakesink name=out")
    n = [0]

    def probe(pad, info):
        n[0] += 1
        return Gst.PadProbeReturn.OK

    p.get_by_name("out").get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, probe)
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    m, scored = until(bus, Gst.MessageType.EOS, 60)
    out(eos=m is not None, downstream=n[0], scored=scored)
    p.set_state(Gst.State.NULL)


def case_rapid_seeks(factory):
    # Flushing seeks one after another while both branches stream, each
    # branch from its own source: the distorted branch restarts (and sends
    # its stream-start and tags) while the reference flushes.
    p = Gst.parse_launch(
        "videotestsrc ! " + CAPS + " ! queue ! v.ref_sink "
        "videotestsrc pattern=ball ! " + CAPS + " ! taginject tags=\"title=distorted\" ! queue ! v.dist_sink " + tail(factory))
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    until(bus, Gst.MessageType.ASYNC_DONE, 60)
    errors = []
    for i in range(60):
        p.seek_simple(Gst.Format.TIME, Gst.SeekFlags.FLUSH, int((i % 5) * 0.2 * SEC))
        m = bus.pop_filtered(Gst.MessageType.ERROR)
        while m is not None:
            errors.append(f"{m.src.get_name()}: {m.parse_error()[0].message}")
            m = bus.pop_filtered(Gst.MessageType.ERROR)
    # The last seek plays on to a stop.
    segment_seek(p, 0.5)
    m, _ = until(bus, Gst.MessageType.EOS, 60)
    out(eos=m is not None, errors=len(errors), first_error=errors[0] if errors else "none")
    p.set_state(Gst.State.NULL)


def case_converge(which):
    # One branch fixes its format and size, the other leaves them free:
    # the free one takes the fixed one's, whichever pad negotiates first.
    fixed = "videotestsrc num-buffers=20 ! video/x-raw,format=I420,width=176,height=144,framerate=30/1"
    free = "videotestsrc num-buffers=20 pattern=ball"
    ref, dist = (fixed, free) if which == "ref-fixed" else (free, fixed)
    p = Gst.parse_launch(f"{ref} ! v.ref_sink {dist} ! v.dist_sink vmafsink name=v frame-message=false")
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    m, scored = until(bus, Gst.MessageType.EOS, 60)
    v = p.get_by_name("v")
    caps = [v.get_static_pad(n).get_current_caps() for n in ("ref_sink", "dist_sink")]
    out(eos=m is not None, scored=scored,
        dist_caps=caps[1].get_structure(0).get_string("format") + f" {caps[1].get_structure(0).get_int('width')[1]}" if caps[1] else "none")
    p.set_state(Gst.State.NULL)


def case_tiny(which):
    # Frames the model or a metric cannot score are refused when their
    # caps arrive, with the reason in the error's message.
    size, props = {"8x8": ("8,height=8", ""), "1x1": ("1,height=1", ""),
                   "ms-ssim": ("160,height=120", "ms-ssim=true")}[which]
    c = f"video/x-raw,format=I420,width={size},framerate=30/1"
    p = Gst.parse_launch(f"videotestsrc num-buffers=10 ! {c} ! v.ref_sink videotestsrc num-buffers=10 ! {c} ! v.dist_sink "
                         f"vmafsink name=v frame-message=false {props}")
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    m = bus.timed_pop_filtered(30 * SEC, Gst.MessageType.ERROR | Gst.MessageType.EOS)
    if m is not None and m.type == Gst.MessageType.ERROR:
        err, dbg = m.parse_error()
        out(error_from=m.src.get_name(), error=err.message.replace("\n", " "),
            format_error=err.matches(Gst.StreamError.quark(), Gst.StreamError.FORMAT))
    else:
        out(error_from="none")
    out(scored=p.get_by_name("v").get_property("frames-scored"))
    p.set_state(Gst.State.NULL)


def warning_from(bus, timeout, name="v", qos=None):
    """The first warning the element posts within timeout seconds; its QoS
    messages on the way go to qos."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        m = bus.timed_pop_filtered(int(0.2 * SEC), Gst.MessageType.WARNING | Gst.MessageType.ERROR | Gst.MessageType.QOS)
        if m is None:
            continue
        if m.type == Gst.MessageType.QOS:
            if qos is not None and m.src.get_name() == name:
                qos.append(m.parse_qos_values()[0])
            continue
        if m.type == Gst.MessageType.ERROR:
            return "error: " + m.parse_error()[0].message
        if m.src.get_name() == name:
            return m.parse_warning()[0].message.replace("\n", " ")
    return "none"


def case_warn_one_linked(_):
    p = Gst.parse_launch("videotestsrc is-live=true ! " + CAPS + " ! v.ref_sink vmafsink name=v frame-message=false")
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    out(warning=warning_from(bus, 60))
    p.set_state(Gst.State.NULL)


def case_warn_lag(_):
    # A live source at 600 frames a second of 1280x720, one scoring
    # thread, backpressure=block: scoring falls behind the source.
    c = "video/x-raw,format=I420,width=1280,height=720,framerate=600/1"
    p = Gst.parse_launch(f"videotestsrc is-live=true pattern=black ! {c} ! v.ref_sink "
                         f"videotestsrc is-live=true pattern=white ! {c} ! v.dist_sink "
                         "vmafsink name=v frame-message=false threads=1 backpressure=block")
    bus = p.get_bus()
    qos = []
    p.set_state(Gst.State.PLAYING)
    out(warning=warning_from(bus, 60, qos=qos))
    out(qos=len(qos), qos_jitter_positive=bool(qos) and qos[0] > 0)
    p.set_state(Gst.State.NULL)


def case_warn_rates(_):
    p = Gst.parse_launch(
        "videotestsrc num-buffers=30 ! video/x-raw,format=I420,width=160,height=120,framerate=30/1 ! v.ref_sink "
        "videotestsrc num-buffers=25 pattern=ball ! video/x-raw,format=I420,width=160,height=120,framerate=25/1 ! v.dist_sink "
        "vmafsink name=v frame-message=false")
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    out(warning=warning_from(bus, 60))
    p.set_state(Gst.State.NULL)


def case_log_level(_):
    # Run under GST_DEBUG=vmafsink:5: log-level reads each element's own
    # category; setting vmafpass's changes neither vmafsink's nor the
    # default threshold.
    sink, pas = Gst.ElementFactory.make("vmafsink"), Gst.ElementFactory.make("vmafpass")
    out(sink_level=sink.get_property("log-level").value_nick, pass_level=pas.get_property("log-level").value_nick)
    pas.set_property("log-level", "log")
    cat = next((c for c in Gst.debug_get_all_categories() if c.get_name() == "vmafpass"), None)
    out(pass_category=Gst.debug_level_get_name(cat.get_threshold()).strip() if cat else "none",
        sink_after=sink.get_property("log-level").value_nick,
        pass_after=pas.get_property("log-level").value_nick,
        default_threshold=int(Gst.debug_get_default_threshold()))


def case_props(_):
    # Property names and values as pipelines written for GStreamer's vmaf
    # element and for any sink use them.
    sink, pas = Gst.ElementFactory.make("vmafsink"), Gst.ElementFactory.make("vmafpass")
    out(pass_has_sync=pas.find_property("sync") is not None)
    for name in ("qos", "max-lateness", "ts-offset", "async", "last-sample", "enable-last-sample"):
        out(**{"sink_has_" + name.replace("-", "_"): sink.find_property(name) is not None})
    out(sync_ready_only=bool(sink.find_property("sync").flags & Gst.PARAM_MUTABLE_READY))
    if sink.find_property("ts-offset") and sink.find_property("max-lateness"):
        sink.set_property("ts-offset", 5000)
        sink.set_property("max-lateness", 20000000)
        out(ts_offset=sink.get_property("ts-offset"), max_lateness=sink.get_property("max-lateness"))
    enum = sink.find_property("pool-method").enum_class
    out(pool_values=len(enum.__enum_values__), pool_nicks=len({v.value_nick for v in enum.__enum_values__.values()}))
    # results-format=none is accepted and writes no file, and a stepped
    # last sample is there with enable-last-sample.
    import os
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), "scores.xml")
    p = Gst.parse_launch("videotestsrc num-buffers=10 ! " + CAPS + " ! tee name=t t. ! queue ! v.ref_sink t. ! queue ! v.dist_sink "
                         f"vmafsink name=v frame-message=false results-format=none results-filename={path}")
    if sink.find_property("enable-last-sample"):
        p.get_by_name("v").set_property("enable-last-sample", True)
    bus = p.get_bus()
    p.set_state(Gst.State.PLAYING)
    m, scored = until(bus, Gst.MessageType.EOS, 60)
    sample = p.get_by_name("v").get_property("last-sample") if sink.find_property("last-sample") else None
    out(none_eos=m is not None, none_scored=scored, none_file=os.path.exists(path),
        last_sample=sample is not None and sample.get_buffer() is not None)
    p.set_state(Gst.State.NULL)


CASES = {
    "log-level": case_log_level,
    "props": case_props,
    "seek-after-eos": case_seek_after_eos,
    "worst-seek": case_worst_seek,
    "pass-caps": case_pass_caps,
    "pass-held-query": case_pass_held_query,
    "pass-events": case_pass_events,
    "pass-dist-ends": case_pass_dist_ends,
    "rapid-seeks": case_rapid_seeks,
    "converge": case_converge,
    "tiny": case_tiny,
    "warn-one-linked": case_warn_one_linked,
    "warn-lag": case_warn_lag,
    "warn-rates": case_warn_rates,
}

if __name__ == "__main__":
    CASES[sys.argv[1]](sys.argv[2] if len(sys.argv) > 2 else "")
