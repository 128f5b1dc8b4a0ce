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
}

# deps_builddir configures ./build with meson (once) and compiles it.
deps_build() {
  if [ ! -f build/build.ninja ]; then
    meson setup build "$@"
  fi
  meson compile -C build
}
