#!/usr/bin/env bash
# Times vmaf-score's native engine against libvmaf's vmaf tool on the same raw
# frames and prints a Markdown table for the README: median frames/s of each,
# the ratio native ÷ libvmaf, peak memory, and the load average of the machine.
#
#   scripts/bench-vs-libvmaf.sh [vmafbench flags] > bench.md
#
# Frames (8-bit 4:2:0, FRAMES of them) are made from the golden clips with
# ffmpeg, looped and scaled with bicubic to each size:
#   576x324    flower_576x324 ref / x264_crf22
#   1280x720   rain_1280x720 ref / x265_crf30 (10-bit, taken down to 8)
#   1920x1080  dune_1920x1080 ref / x264_crf38 (rain when the goldens lack dune)
#   3840x2160  as 1920x1080, scaled up
# Both tools score the default model (vmaf_v0.6.1) at each THREADS value, run
# by run in turn (native, libvmaf, [libvmaf --cpumask], native, ...), RUNS
# times. Every run's VMAF, pooled and per frame, must agree with libvmaf's
# within 1e-4 (vmafbench -tol), or the exit status is 1.
#
# Environment:
#   VMAF_BIN          libvmaf's vmaf tool (default: vmaf on PATH); without it
#                     the benchmark is skipped with exit status 0
#   VMAF_SCORE        vmaf-score binary (default: built from ./cmd/vmaf-score
#                     as meson builds it, with the lazyffmpeg tag: inputs are
#                     y4m, so no FFmpeg is loaded, as libvmaf's tool loads none)
#   VMAF_SCORE_ARGS   its leading arguments (default: --engine native)
#   LIBVMAF_CPUMASK   also time libvmaf with --cpumask MASK (default 48, which
#                     leaves libvmaf AVX2 at most); empty: do not
#   SIZES             default: 576x324 1280x720 1920x1080 3840x2160
#   THREADS           default: 1,2
#   FRAMES            frames per size (default 48)
#   RUNS              timed runs of each tool per size and thread count (default 5)
#   FEATURES          also time these extractors alone, each with -n --feature
#                     NAME[=opts] and compared on its first output, one table
#                     each: space-separated NAME[=opts]@METRIC@TOL entries, e.g.
#                     "cambi@cambi@1e-3 ciede@ciede2000@1e-3"; "all" for every
#                     extractor libvmaf 3.2 has beyond the default model's
#   GOLDENS           goldens directory (default: ../shared/goldens when it
#                     exists, else testdata/goldens)
#
# Peak memory is the child's ru_maxrss, what GNU time's %M reports. This
# script never builds libvmaf.
set -euo pipefail

cd "$(dirname "$0")/.."

vmaf_bin=${VMAF_BIN:-$(command -v vmaf || true)}
if [[ -z $vmaf_bin || ! -x $vmaf_bin ]]; then
	echo "bench-vs-libvmaf: no libvmaf vmaf tool (set VMAF_BIN or put vmaf on PATH); skipping" >&2
	exit 0
fi
for t in ffmpeg xz go; do
	if ! command -v "$t" >/dev/null; then
		echo "bench-vs-libvmaf: $t is needed (scripts/deps.sh installs it)" >&2
		exit 2
	fi
done

sizes=${SIZES:-576x324 1280x720 1920x1080 3840x2160}
threads=${THREADS:-1,2}
frames=${FRAMES:-48}
runs=${RUNS:-5}
cpumask=${LIBVMAF_CPUMASK-48}
goldens=${GOLDENS:-}
if [[ -z $goldens ]]; then
	goldens=testdata/goldens
	[[ -d ../shared/goldens/clips ]] && goldens=../shared/goldens
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

ours=${VMAF_SCORE:-}
if [[ -z $ours ]]; then
	ours=$tmp/vmaf-score
	built="commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	if [[ -n $(git status --porcelain --untracked-files=no -- '*.go' '*.s' go.mod go.sum 2>/dev/null) ]]; then
		built+=" with uncommitted changes"
	fi
	go build -tags lazyffmpeg -o "$ours" ./cmd/vmaf-score
fi
go build -o "$tmp/vmafbench" ./internal/cmd/vmafbench

# clip NAME prints the path of NAME.y4m from the goldens, decompressed into
# $tmp once; it fails when the goldens lack it.
clip() {
	local out=$tmp/src/$1.y4m
	if [[ ! -f $out ]]; then
		mkdir -p "$tmp/src"
		if [[ -f $goldens/clips/$1.y4m ]]; then
			cp "$goldens/clips/$1.y4m" "$out"
		elif [[ -f $goldens/clips/$1.y4m.xz ]]; then
			xz -dc "$goldens/clips/$1.y4m.xz" >"$out"
		else
			return 1
		fi
	fi
	echo "$out"
}

# source SIZE prints the golden pair (content, distortion) frames of SIZE
# are made from.
source_pair() {
	case $1 in
	576x324) echo "flower_576x324 x264_crf22" ;;
	1280x720) echo "rain_1280x720 x265_crf30" ;;
	*)
		if clip dune_1920x1080_ref >/dev/null; then
			echo "dune_1920x1080 x264_crf38"
		else
			echo "rain_1280x720 x265_crf30"
		fi
		;;
	esac
}

# rawframes SRC.y4m WxH OUT.yuv loops and scales SRC to FRAMES 8-bit 4:2:0
# frames of WxH.
rawframes() {
	ffmpeg -v error -nostdin -y -stream_loop -1 -i "$1" \
		-vf "scale=${2/x/:}:flags=bicubic" -pix_fmt yuv420p -frames:v "$frames" \
		-f rawvideo "$3"
	local w=${2%x*} h=${2#*x}
	local want=$((frames * (w * h + 2 * (w / 2) * (h / 2))))
	if [[ $(stat -c %s "$3") -ne $want ]]; then
		echo "bench-vs-libvmaf: $3 is not $frames frames of $2" >&2
		exit 2
	fi
}

cases=()
for size in $sizes; do
	read -r content dist < <(source_pair "$size")
	ref=$(clip "${content}_ref") || { echo "bench-vs-libvmaf: $goldens lacks ${content}_ref" >&2; exit 2; }
	dis=$(clip "${content}_$dist") || { echo "bench-vs-libvmaf: $goldens lacks ${content}_$dist" >&2; exit 2; }
	echo "bench-vs-libvmaf: $size frames from ${content} ref / $dist" >&2
	rawframes "$ref" "$size" "$tmp/$size.ref.yuv"
	rawframes "$dis" "$size" "$tmp/$size.dis.yuv"
	cases+=("$size:$tmp/$size.ref.yuv:$tmp/$size.dis.yuv")
done
rm -rf "$tmp/src"

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "native: $("$ours" --version 2>&1 | head -n 1) (${VMAF_SCORE_ARGS---engine native}) at ${VMAF_SCORE:-$ours}${built:+, built from $built}"
echo "libvmaf: $("$vmaf_bin" --version 2>&1 | head -n 1) at $vmaf_bin"
echo "machine: ${cpu:-unknown CPU}, $(nproc) cores; $frames frames a size, 8-bit 4:2:0, vmaf_v0.6.1"
echo "load average at start: $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo unknown)"
echo

status=0
if [[ ${ONLY_FEATURES:-} != 1 ]]; then
	"$tmp/vmafbench" -libvmaf "$vmaf_bin" -ours "$ours" -ours-args "${VMAF_SCORE_ARGS---engine native}" \
		${cpumask:+-cpumask "$cpumask"} -threads "$threads" -runs "$runs" "$@" "${cases[@]}" || status=$?
fi
features=${FEATURES:-}
if [[ $features == all ]]; then
	features="cambi@cambi@1e-3 ciede@ciede2000@1e-3 psnr_hvs@psnr_hvs@1e-3 float_vif@vif_scale0@1e-4
		float_adm@adm2@1e-4 float_motion@motion2@1e-4 float_psnr@float_psnr@1e-3 float_ansnr@float_ansnr@1e-3
		float_moment@float_moment_ref1st@1e-3 speed_chroma@speed_chroma_uv@1e-3 speed_temporal@speed_temporal@1e-3"
fi
for f in $features; do
	IFS=@ read -r spec metric tol <<<"$f"
	echo
	echo "### --feature $spec"
	echo
	"$tmp/vmafbench" -libvmaf "$vmaf_bin" -ours "$ours" -ours-args "${VMAF_SCORE_ARGS---engine native}" \
		-feature "$spec" -metric "$metric" -tol "$tol" \
		${cpumask:+-cpumask "$cpumask"} -threads "$threads" -runs "$runs" "$@" "${cases[@]}" || status=$?
done
echo
echo "load average at end: $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo unknown)"
exit "$status"
