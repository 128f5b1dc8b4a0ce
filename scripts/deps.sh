# Sourced by setup.sh and test.sh: installs the Debian 12 packages the
# project builds and tests with, skipping what is already there.

deps_packages=(
  build-essential pkg-config meson ninja-build xz-utils socat
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  gstreamer1.0-plugins-ugly gstreamer1.0-libav
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libavdevice-dev
  libavfilter-dev libswresample-dev ffmpeg
  nodejs npm
  python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0
  prometheus prometheus-pushgateway
)

deps_install() {
  local missing=()
  local p
  for p in "${deps_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  # Node and npm may come from outside Debian (a newer toolchain on PATH).
  if command -v node >/dev/null && command -v npm >/dev/null; then
    local m=()
    for p in "${missing[@]}"; do [[ $p == nodejs || $p == npm ]] || m+=("$p"); done
    missing=("${m[@]}")
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing Debian packages: ${missing[*]}" >&2
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  if ! command -v go >/dev/null; then
    if [ -x /usr/local/go/bin/go ]; then
      export PATH=/usr/local/go/bin:$PATH
    else
      echo "Go 1.26 or newer is needed: https://go.dev/dl/ (install it under /usr/local/go)" >&2
      return 1
    fi
  fi
  deps_onnxruntime
}

# ONNX Runtime for the learned models: Debian has no package, so the
# library comes from the onnxruntime-node npm package, fetched without
# running its install scripts (they download more from elsewhere) and
# checked against a pinned sha256. Programs open it at run time.
deps_ort_version=1.24.1
deps_ort_sha256=53ef1ac028dd1b05554b8da28d9159eb3876f99868193d2aaa6e67f0243c23d4
deps_ort_dir=.deps/onnxruntime-$deps_ort_version
deps_onnxruntime() {
  local lib=$deps_ort_dir/libonnxruntime.so.1
  if [ -f "$lib" ] && echo "$deps_ort_sha256  $lib" | sha256sum -c --status; then
    return 0
  fi
  echo "fetching ONNX Runtime $deps_ort_version (npm onnxruntime-node, library only)" >&2
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent --ignore-scripts "onnxruntime-node@$deps_ort_version" >/dev/null) || { rm -rf "$tmp"; return 1; }
  tar -xzf "$tmp/onnxruntime-node-$deps_ort_version.tgz" -C "$tmp" package/bin/napi-v6/linux/x64/libonnxruntime.so.1
  if ! echo "$deps_ort_sha256  $tmp/package/bin/napi-v6/linux/x64/libonnxruntime.so.1" | sha256sum -c --status; then
    echo "onnxruntime-node@$deps_ort_version: libonnxruntime.so.1 does not have the pinned sha256 $deps_ort_sha256" >&2
    rm -rf "$tmp"
    return 1
  fi
  mkdir -p "$deps_ort_dir"
  install -m 0644 "$tmp/package/bin/napi-v6/linux/x64/libonnxruntime.so.1" "$lib"
  rm -rf "$tmp"
}

# deps_place_onnxruntime puts the library beside the built programs and the
# plugin, where they look for it.
deps_place_onnxruntime() {
  local lib=$deps_ort_dir/libonnxruntime.so.1
  [ -f "$lib" ] || return 0
  cmp -s "$lib" build/libonnxruntime.so.1 || install -m 0644 "$lib" build/libonnxruntime.so.1
  if [ -d build/plugin/vmafsink ]; then
    ln -sfn ../../libonnxruntime.so.1 build/plugin/vmafsink/libonnxruntime.so.1
  fi
}

# deps_builddir configures ./build with meson (once) and compiles it.
deps_build() {
  if [ ! -f build/build.ninja ]; then
    meson setup build "$@"
  fi
  meson compile -C build
  deps_place_onnxruntime
}
