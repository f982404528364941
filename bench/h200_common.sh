# Sourced by the one-call H200 scripts (dtypes_h200.sh, owed_h200.sh): the repository root as
# the working directory, OUTDIR (the first argument, else $OUT, else a dated folder under
# bench/results), B (BUILD_DIR, default build-gpu), log, and h200_build (Release, sm_90,
# every core; H200_CMAKE_ARGS: more configure options; TARGETS: only those targets; its log in OUTDIR/build.log, the script ends on a
# failed build).
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
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUX_CUDA_ARCHS=90 ${H200_CMAKE_ARGS:-} >"$OUTDIR/build.log" 2>&1 &&
    cmake --build "$B" -j"$(nproc)" ${TARGETS:+--target $TARGETS} >>"$OUTDIR/build.log" 2>&1 ||
    { tail -40 "$OUTDIR/build.log"; exit 1; }
}
# t LIMIT LOG cmd...: runs cmd with a time limit, its output in $LOGS/LOG (LOGS: default
# OUTDIR; a folder outside OUTDIR where a call must bring back few files); prints one line
# (the exit status and the run's last summary lines) and appends it to OUTDIR/summary.txt;
# a failed run's last 40 lines go to OUTDIR/fail-LOG.
t() {
  local lim=$1 lf=$2 rc logs=${LOGS:-$OUTDIR}
  shift 2
  timeout -k 5 "$lim" "$@" >"$logs/$lf" 2>&1
  rc=$?
  echo "  $lf: exit $rc; $(grep -E 'PASSED|FAILED|cases in|comparisons|SUMMARY|SKIP' "$logs/$lf" | tail -2 | tr '\n' ' ')" |
    tee -a "$OUTDIR/summary.txt"
  [ $rc -eq 0 ] || tail -40 "$logs/$lf" >"$OUTDIR/fail-$lf"
}
# h200_parallel LOGDIR JOBS: LOGS (default LOGDIR, made) and JOBS (default JOBS) for runs that
# go through xargs -P "$JOBS" bash -c, which need t, LOGS and OUTDIR exported.
h200_parallel() {
  LOGS=${LOGS:-$1}
  JOBS=${JOBS:-$2}
  mkdir -p "$LOGS"
  export -f t
  export LOGS OUTDIR
}
