#!/bin/sh
# Compares vmaf-score with an installed libvmaf on golden clip pairs.
#
#   scripts/compare-libvmaf.sh [vmafcompare flags] [GOLDENS_DIR...]
#
# Every pair of each goldens-style directory (default: testdata/goldens) is
# scored from the same raw frames by libvmaf's vmaf tool and by vmaf-score,
# with the golden set's options; the worst absolute difference of every
# per-frame metric is printed. Exit status 1 when a VMAF score differs by more
# than 0.01 or another metric by more than 1e-4 (-score-tol, -feature-tol).
#
# Environment:
#   VMAF_BIN         libvmaf's vmaf tool (default: vmaf on PATH), built with
#                    float extractors (-Denable_float=true). Without it the
#                    comparison is skipped with exit status 0.
#   VMAF_SCORE       vmaf-score binary (default: built from ./cmd/vmaf-score)
#   VMAF_SCORE_ARGS  extra leading arguments for vmaf-score
#                    (default: --engine native)
#   VMAF_MODEL_DIR   directory holding vmaf_float_v0.6.1.json (default: the
#                    tools' built-in model)
#
# This script never builds libvmaf.
set -eu

cd "$(dirname "$0")/.."

vmaf_bin=${VMAF_BIN:-$(command -v vmaf || true)}
if [ -z "$vmaf_bin" ] || [ ! -x "$vmaf_bin" ]; then
	echo "compare-libvmaf: no libvmaf vmaf tool (set VMAF_BIN or put vmaf on PATH); skipping"
	exit 0
fi
echo "compare-libvmaf: libvmaf $("$vmaf_bin" --version 2>&1 | head -n 1) at $vmaf_bin"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ -n "${VMAF_SCORE:-}" ]; then
	ours=$VMAF_SCORE
else
	ours=$tmp/vmaf-score
	if ! go build -o "$ours" ./cmd/vmaf-score; then
		echo "compare-libvmaf: cannot build ./cmd/vmaf-score (set VMAF_SCORE)" >&2
		exit 2
	fi
fi
go build -o "$tmp/vmafcompare" ./internal/cmd/vmafcompare

set -- -libvmaf "$vmaf_bin" -ours "$ours" -ours-args "${VMAF_SCORE_ARGS---engine native}" \
	${VMAF_MODEL_DIR:+-models "$VMAF_MODEL_DIR"} "$@"
status=0
"$tmp/vmafcompare" "$@" || status=$?
exit "$status"
