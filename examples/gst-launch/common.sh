# Sourced by the example scripts: finds the plugin and the sample clips.

# The plugin: GST_PLUGIN_PATH as set by the caller, else the build tree,
# else the installed plugin (found by GStreamer on its own).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ -z "${GST_PLUGIN_PATH:-}" ] && [ -d "$root/build" ]; then
  export GST_PLUGIN_PATH="$root/build"
fi
if ! gst-inspect-1.0 vmafsink >/dev/null 2>&1; then
  echo "vmafsink not found: build it (meson setup build && meson compile -C build) or install it" >&2
  exit 1
fi

# sample_clip NAME: prints the path of a sample clip from the repository's
# test data, decompressed once into a temporary directory.
sample_dir=${TMPDIR:-/tmp}/vmafsink-examples
sample_clip() {
  local src="$root/testdata/goldens/clips/$1.y4m.xz" out="$sample_dir/$1.y4m"
  if [ ! -f "$out" ]; then
    mkdir -p "$sample_dir"
    if ! xz -dc "$src" >"$out.tmp"; then
      rm -f "$out.tmp"
      echo "cannot decompress the sample clip $src" >&2
      return 1
    fi
    mv "$out.tmp" "$out"
  fi
  echo "$out"
}

# print_scores: reads gst-launch-1.0 -m output and prints one line per
# frame (index, score) and the pooled summary. A field's type is matched
# loosely (index is an (int), counters (guint64)), so that a change of
# integer type does not silence the output.
print_scores() {
  sed -nE \
    -e 's/.*VMAF, type=\(string\)frame, index=\([a-z0-9]+\)([0-9]+), score=\(double\)([0-9.e+-]+).*/frame \1  vmaf \2/p' \
    -e 's/.*VMAF, type=\(string\)pooled.*frames-scored=\([a-z0-9]+\)([0-9]+).*score=\(double\)([0-9.e+-]+).*/pooled: \1 frames, vmaf \2/p'
}
