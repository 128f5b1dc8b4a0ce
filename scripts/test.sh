#!/usr/bin/env bash
# Runs the whole test suite on a Debian 12 machine, installing what it
# needs first: the quick start's second command. Safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
deps_install
deps_build
meson test -C build --print-errorlogs "$@"
