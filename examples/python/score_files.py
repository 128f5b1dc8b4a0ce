#!/usr/bin/python3
"""Runs vmaf-score on a reference and one or more encodes and reads its
JSON: each encode's pooled VMAF, its worst frames, and any warnings the
run gave (frame rates that differ, a model that does not fit, ...).

    python3 examples/python/score_files.py [--vmaf-score PATH] REF ENCODE...

vmaf-score is looked up as build/vmaf-score, then on PATH.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile


def vmaf_score_path(given):
    if given:
        return given
    if os.access("build/vmaf-score", os.X_OK):
        return "build/vmaf-score"
    found = shutil.which("vmaf-score")
    if not found:
        sys.exit("vmaf-score not found: build it (meson compile -C build) or give --vmaf-score PATH")
    return found


def score(tool, ref, encode):
    """vmaf-score's JSON results for one encode."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        run = subprocess.run([tool, "-q", "-r", ref, "-d", encode, "--json", "-o", out],
                             capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"{encode}: vmaf-score exited {run.returncode}: {run.stderr.strip()}")
        with open(out) as f:
            return json.load(f)


def main(argv):
    tool = None
    if len(argv) > 1 and argv[0] == "--vmaf-score":
        tool, argv = argv[1], argv[2:]
    if len(argv) < 2:
        sys.exit(__doc__)
    tool = vmaf_score_path(tool)
    ref, encodes = argv[0], argv[1:]
    for encode in encodes:
        doc = score(tool, ref, encode)
        pooled = doc["pooled_metrics"]["vmaf"]
        worst = sorted(doc["frames"], key=lambda f: f["metrics"]["vmaf"])[:3]
        print(f"{encode}: vmaf {pooled['mean']:.3f} (min {pooled['min']:.3f}, harmonic mean {pooled['harmonic_mean']:.3f})")
        print("  worst frames: " + ", ".join(f"{f['frameNum']} ({f['metrics']['vmaf']:.2f})" for f in worst))
        for w in doc.get("warnings", []):
            print(f"  warning: {w}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
