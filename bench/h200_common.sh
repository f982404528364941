# Sourced by the one-call H200 scripts (dtypes_h200.sh, owed_h200.sh): the repository root as
# the working directory, OUTDIR (the first argument, else $OUT, else a dated folder under
# bench/results), B (BUILD_DIR, default build-gpu), log, and h200_build (Release, sm_90,
# every core; its log in OUTDIR/build.log, the script ends on a failed build).
# Usage: source "$(dirname "$0")/h200_common.sh" <tag> "$@"
set -uo pipefail
H200_TAG=$1
shift
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUTDIR=${1:-${OUT:-bench/results/run-$(date +%Y%m%d-%H%M%S)}}
mkdir -p "$OUTDIR"
B=${BUILD_DIR:-build-gpu}
log() { printf '[%s %s] %s\n' "$H200_TAG" "$(date +%H:%M:%S)" "$*"; }
h200_build() {
  log "build"
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUX_CUDA_ARCHS=90 >"$OUTDIR/build.log" 2>&1 &&
    cmake --build "$B" -j"$(nproc)" >>"$OUTDIR/build.log" 2>&1 || { tail -40 "$OUTDIR/build.log"; exit 1; }
}
