"""A Python host for vmafsink fault tests: runs a pipeline through
GStreamer's Python bindings, provokes a fault, then reuses the same
element, and prints what it saw, one fact a line, for the Go test to check.

usage: fault_host.py panic RESULTS
       fault_host.py null-while-paused MODE SOCKET RESULTS
       fault_host.py messages RESULTS (30 frames; prints every error, frame and pooled message)
       fault_host.py bad-socket BADPATH GOODPATH RESULTS
       fault_host.py panic-at WHERE RESULTS (with VMAFSINK_TEST_PANIC_AT=WHERE)
"""
import json
import socket
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

CAPS = "video/x-raw,format=I420,width=160,height=120,framerate=30/1"


def build(extra):
    desc = ("videotestsrc name=src pattern=ball ! %s ! tee name=t "
            "t. ! queue ! v.ref_sink t. ! queue ! videoflip method=horizontal-flip ! v.dist_sink "
            "vmafsink name=v threads=1 frame-message=false results-format=json %s" % (CAPS, extra))
    return Gst.parse_launch(desc)


def wait(pipe, seconds):
    """Waits for EOS or an error; returns ("eos", "") or ("error", text)."""
    bus = pipe.get_bus()
    msg = bus.timed_pop_filtered(int(seconds * Gst.SECOND), Gst.MessageType.EOS | Gst.MessageType.ERROR)
    if msg is None:
        return "timeout", ""
    if msg.type == Gst.MessageType.ERROR:
        err, dbg = msg.parse_error()
        return "error", "%s | %s" % (err.message, dbg)
    return "eos", ""


def set_state(pipe, state):
    t0 = time.monotonic()
    ret = pipe.set_state(state)
    if ret == Gst.StateChangeReturn.ASYNC:
        ret, _, _ = pipe.get_state(60 * Gst.SECOND)
    return ret, time.monotonic() - t0


def rerun(pipe, results):
    """Reuses the stopped pipeline for a short run that must end in EOS."""
    pipe.get_by_name("src").set_property("num-buffers", 5)
    pipe.get_by_name("v").set_property("results-filename", results)
    ret, _ = set_state(pipe, Gst.State.PLAYING)
    kind, text = wait(pipe, 60)
    scored = pipe.get_by_name("v").get_property("frames-scored")
    print("rerun=%s scored=%d state=%s %s" % (kind, scored, ret.value_nick, text), flush=True)
    set_state(pipe, Gst.State.NULL)


class MCP:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX)
        self.s.connect(path)
        self.f = self.s.makefile("rw")
        self.id = 0
        self.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "fault_host", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.f.write(json.dumps(msg) + "\n")
        self.f.flush()

    def call(self, method, params):
        self.id += 1
        self.send({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})
        while True:
            reply = json.loads(self.f.readline())
            if reply.get("id") == self.id:
                return reply

    def tool(self, name, args):
        return self.call("tools/call", {"name": name, "arguments": args})["result"]["structuredContent"]


def panic(results):
    pipe = build("results-filename=" + results)
    set_state(pipe, Gst.State.PLAYING)
    kind, text = wait(pipe, 60)
    print("first=%s %s" % (kind, text.replace("\n", " ")), flush=True)
    ret, took = set_state(pipe, Gst.State.NULL)
    print("null=%s took=%.2f" % (ret.value_nick, took), flush=True)
    rerun(pipe, results + ".rerun.json")


def null_while_paused(mode, sock, results):
    pipe = build("pause-mode=%s mcp-uds=%s results-filename=%s" % (mode, sock, results))
    set_state(pipe, Gst.State.PLAYING)
    deadline = time.monotonic() + 60
    while True:
        try:
            c = MCP(sock)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)
    while c.tool("vmaf_status", {})["frames_scored"] < 5:
        time.sleep(0.02)
    c.tool("vmaf_pause", {"wait": True})
    time.sleep(0.3)
    before = c.tool("vmaf_status", {})
    print("paused state=%s scored=%d" % (before["state"], before["frames_scored"]), flush=True)
    ret, took = set_state(pipe, Gst.State.NULL)
    print("null=%s took=%.2f" % (ret.value_nick, took), flush=True)
    rerun(pipe, results + ".rerun.json")


def messages(results):
    pipe = build("results-filename=" + results + " frame-message=true")
    pipe.get_by_name("src").set_property("num-buffers", 30)
    set_state(pipe, Gst.State.PLAYING)
    bus = pipe.get_bus()
    frames = pooled = 0
    while True:
        msg = bus.timed_pop(60 * Gst.SECOND)
        if msg is None or msg.type == Gst.MessageType.EOS:
            break
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            print("error=%s | %s" % (err.message, dbg.replace("\n", " ")), flush=True)
        s = msg.get_structure()
        if msg.type == Gst.MessageType.ELEMENT and s is not None and s.get_name() == "VMAF":
            if s.get_string("type") == "frame":
                frames += 1
            else:
                pooled += 1
                print("pooled scored=%d" % s.get_value("frames-scored"), flush=True)
    print("frames=%d pooled=%d" % (frames, pooled), flush=True)
    set_state(pipe, Gst.State.NULL)


def bad_socket(bad, good, results):
    pipe = build("mcp-uds=%s results-filename=%s" % (bad, results))
    ret, _ = set_state(pipe, Gst.State.PLAYING)
    kind, text = wait(pipe, 60)
    print("start=%s %s %s" % (ret.value_nick, kind, text.replace("\n", " ")), flush=True)
    set_state(pipe, Gst.State.NULL)
    pipe.get_by_name("v").set_property("mcp-uds", good)
    rerun(pipe, results)


def panic_at(where, results):
    pipe = build("results-filename=" + results)
    pipe.get_by_name("src").set_property("num-buffers", 30)
    if where == "set-property":
        pipe.get_by_name("v").set_property("threads", 2)
        kind, text = wait(pipe, 60)
        print("set=%s %s" % (kind, text.replace("\n", " ")), flush=True)
    ret, _ = set_state(pipe, Gst.State.PLAYING)
    kind, text = wait(pipe, 60)
    print("play=%s %s %s" % (ret.value_nick, kind, text.replace("\n", " ")), flush=True)
    ret, took = set_state(pipe, Gst.State.NULL)
    print("null=%s took=%.2f" % (ret.value_nick, took), flush=True)


def main():
    Gst.init(None)
    if sys.argv[1] == "panic":
        panic(sys.argv[2])
    elif sys.argv[1] == "messages":
        messages(sys.argv[2])
    elif sys.argv[1] == "panic-at":
        panic_at(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "bad-socket":
        bad_socket(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        null_while_paused(sys.argv[2], sys.argv[3], sys.argv[4])
    print("alive", flush=True)


main()
