#!/usr/bin/env bash
# Sets a Debian 12 machine up for vmafsink (packages, build) and scores a
# sample clip pair: the quick start's first command. Safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
deps_install
deps_build

ref=testdata/goldens/clips/flower_576x324_ref.y4m.xz
dist=testdata/goldens/clips/flower_576x324_x264_crf22.y4m.xz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
xz -dc "$ref" >"$work/ref.y4m"
xz -dc "$dist" >"$work/dist.y4m"
echo "scoring $(basename "$dist" .y4m.xz) against its reference with vmaf_v0.6.1:"
build/vmaf-score -r "$work/ref.y4m" -d "$work/dist.y4m" --threads "$(nproc)" --json -o "$work/out.json"
echo "per-frame scores were written as libvmaf JSON; the plugin is build/plugin/vmafsink/libgstvmafsink.so (use GST_PLUGIN_PATH=$PWD/build)"
