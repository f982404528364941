#!/usr/bin/env bash
# Session 40's GPU calls (see /work/shared/device/README.md).
#
#     source .devdeps/env.sh && [MODE=prof|test] bash bench/s40_h200.sh [OUTDIR]
#
# MODE=prof: build with -lineinfo, ncu of one onesweep pass of a 2^28 float32 sort (full set,
#   source counters: the SASS page as CSV), of the float32 scatter-add's kernels and of the
#   top-k's kernels; then the bench rows (OPS) on CUDA.
# MODE=quick: see below.
# MODE=all: one call of everything (see below; BASE=<dir holding a commit's kernels/ and src/,
#   carried: its rows after, rebuilt in the same tree).
# MODE=test (default): tests (TESTS) on CUDA and NVIDIA OpenCL, test_index_xbackend, memcheck
#   of test_sort (SHORT=1: none); gpux-bench rows (OPS) at 2^28 on both backends; the peers
#   (PEERS) in the same call.
source "$(dirname "$0")/h200_common.sh" s40_h200 "$@"
NCU=/usr/local/cuda/bin/ncu
CS=/usr/local/cuda/bin/compute-sanitizer
MODE=${MODE:-test}
OPS=${OPS:-sort_f32,argsort_f32,sort_pairs_i32,unique_i64,topk100,median,scatter_add,scatter_add_i32}
bench_rows() { # backends...
  for be in "$@"; do
    timeout 150 "$B/bin/gpux-bench" --backend $be --device gpu --reps 5 --sizes 2^28 --md "$OUTDIR/rows.md" \
      --op "$OPS" 2>&1 | grep -E "^  [a-z]|rror|WRONG"
  done
}
# ncu of one onesweep pass (the second sort's first pass) with source counters, and the
# float32 scatter-add's kernels (durations, memory, warp states)
ncu_sort() {
  log "ncu onesweep"
  timeout 200 $NCU --set full --import-source yes -k regex:onesweep --launch-skip 5 --launch-count 1 \
    -f -o "$OUTDIR/os" "$B/bin/gpux-bench" --backend cuda --device gpu --reps 1 --sizes 2^28 --op sort_f32 \
    >"$OUTDIR/ncu-os.log" 2>&1
  tail -3 "$OUTDIR/ncu-os.log"
  $NCU --import "$OUTDIR/os.ncu-rep" --page details >"$OUTDIR/os-details.txt" 2>&1
  $NCU --import "$OUTDIR/os.ncu-rep" --page source --csv --print-source sass >"$OUTDIR/os-sass.csv" 2>&1 ||
    $NCU --import "$OUTDIR/os.ncu-rep" --page source --csv >"$OUTDIR/os-sass.csv" 2>&1
  $NCU --import "$OUTDIR/os.ncu-rep" --page source --csv --print-source cuda,sass >"$OUTDIR/os-src.csv" 2>&1 || true
  rm -f "$OUTDIR/os.ncu-rep"
  head -c 300 "$OUTDIR/os-sass.csv"; echo
}
ncu_ops() { # ops...
  for op in "$@"; do
    log "ncu $op"
    timeout 150 $NCU --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
      --section LaunchStats --section Occupancy -k regex:'scatter|select|topk|reduce|mask|scan' \
      "$B/bin/gpux-bench" --backend cuda --device gpu --reps 1 --warmup 0 --sizes 2^28 --op $op >"$OUTDIR/ncu-$op.txt" 2>&1
    grep -E "^  gpux_|Duration" "$OUTDIR/ncu-$op.txt" | head -40
  done
}
if [ "$MODE" = quick ]; then
  # the least that checks both kernel sets and reads the fused ends' gain: CUDA test_sort
  # and test_count, NVIDIA OpenCL test_sort, xbackend, rows with and without the fused ends
  TARGETS="test_sort test_count test_index_xbackend gpux-bench" h200_build
  h200_parallel /tmp/s40-logs 8
  log "tests"
  {
    echo "GPUX_BACKEND=cuda t 120 test_sort-cuda.log $B/bin/test_sort"
    echo "GPUX_BACKEND=cuda t 120 test_count-cuda.log $B/bin/test_count"
    echo "GPUX_BACKEND=opencl t 120 test_sort-opencl.log $B/bin/test_sort"
    echo "GPUX_BACKEND=opencl t 120 test_count-opencl.log $B/bin/test_count"
    echo "t 120 test_index_xbackend.log $B/bin/test_index_xbackend"
  } | xargs -P "$JOBS" -I{} bash -c '{}'
  log "bench"
  bench_rows cuda opencl
  mkdir -p "$OUTDIR/unfused"
  OUTDIR="$OUTDIR/unfused" OPS=sort_f32,argsort_f32 GPUX_SORT_FUSED=0 bench_rows cuda opencl | sed "s/^/unfused /"
  log "done"
  exit 0
fi
if [ "$MODE" = all ]; then
  # one call: build (-lineinfo), tests, rows on both backends, peers, ncu, then the rows of
  # BASE (a commit) rebuilt in the same tree, for the same-call comparison
  H200_CMAKE_ARGS="-DGPUX_CUDA_NVCC_FLAGS=-lineinfo" \
    TARGETS=${TARGETS-"test_sort test_select test_group test_count test_index_xbackend gpux-bench"} h200_build
  h200_parallel /tmp/s40-logs 8
  log "tests"
  {
    for be in cuda opencl; do
      for x in ${TESTS:-test_sort test_select test_group test_count}; do echo "GPUX_BACKEND=$be t 170 $x-$be.log $B/bin/$x"; done
    done
    echo "t 170 test_index_xbackend.log $B/bin/test_index_xbackend"
  } | xargs -P "$JOBS" -I{} bash -c '{}'
  log "bench"
  bench_rows cuda opencl
  for p in ${PEERS:-peers_sort peers_count}; do
    timeout 100 python3 bench/$p.py --reps 5 --md "$OUTDIR/peers.md" 2>&1 | tail -8
  done
  if [ -n "${BASE:-}" ]; then
    log "base $BASE"
    mkdir -p /tmp/s40-head && cp -a kernels src /tmp/s40-head/ &&
    rm -rf kernels src && cp -a "$BASE/kernels" "$BASE/src" . &&
      cmake --build "$B" --target gpux-bench >"$OUTDIR/build-base.log" 2>&1 &&
      for be in cuda opencl; do
        timeout 100 "$B/bin/gpux-bench" --backend $be --device gpu --reps 5 --sizes 2^28 --md "$OUTDIR/rows-base.md" \
          --op "${BASE_OPS:-$OPS}" 2>&1 | grep -E "^  [a-z]|rror|WRONG"
      done
    rm -rf kernels src && cp -a /tmp/s40-head/kernels /tmp/s40-head/src .
  fi
  [ -n "${NCU_SORT:-1}" ] && ncu_sort
  [ -n "${NCU_OPS:-}" ] && ncu_ops $NCU_OPS
  log "done"
  exit 0
fi
if [ "$MODE" = prof ]; then
  H200_CMAKE_ARGS="-DGPUX_CUDA_NVCC_FLAGS=-lineinfo" TARGETS="gpux-bench" h200_build
  bench_rows cuda
  ncu_sort
  ncu_ops scatter_add topk100
  log "done"
  exit 0
fi
TARGETS=${TARGETS-"test_sort test_select test_group test_count test_mask test_count test_index_xbackend gpux-bench"} h200_build
h200_parallel /tmp/s40-logs 8
log "tests"
{
  for be in cuda opencl; do
    for x in ${TESTS:-test_sort test_select test_group test_count}; do echo "GPUX_BACKEND=$be t 170 $x-$be.log $B/bin/$x"; done
  done
  [ -n "${SHORT:-}" ] || for x in test_sort test_count; do
    echo "GPUX_BACKEND=cuda t 170 memcheck-$x.log $CS --tool memcheck --error-exitcode 9 $B/bin/$x"
  done
  echo "t 170 test_index_xbackend.log $B/bin/test_index_xbackend"
} | xargs -P "$JOBS" -I{} bash -c '{}'
log "bench"
bench_rows cuda opencl
for p in ${PEERS:-peers_sort peers_select peers_count}; do
  timeout 100 python3 bench/$p.py --reps 5 --md "$OUTDIR/peers.md" 2>&1 | tail -8
done
log "done"
