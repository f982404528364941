#!/usr/bin/env bash
# Session 40's GPU calls (see /work/shared/device/README.md).
#
#     source .devdeps/env.sh && [MODE=quick|all|prof|test] bash bench/s40_h200.sh [OUTDIR]
#
# quick: CUDA and NVIDIA OpenCL test_sort / test_count, xbackend, the rows (OPS) with and
#   without the fused ends (GPUX_SORT_FUSED=0: OUTDIR/unfused); MEMCHECK (tests) and
#   RACECHECK (test:filter pairs) run with the tests in every mode; NCU_OPS: ncu of those;
#   UNFUSED_OPS=none: no unfused rows; NCU_SORT=1: -lineinfo and the onesweep profile too;
# every mode: H200_CMAKE_ARGS go to cmake (-DGPUX_WITH_DLPACK=OFF: the GPU machine has no
#   network for the DLPack download);
# all: build with -lineinfo, tests (TESTS), rows, peers (PEERS), BASE's rows (BASE: a
#   carried directory holding a commit's kernels/ and src/, rebuilt in the same tree:
#   OUTDIR/base), ncu of a onesweep pass (source counters: the SASS page as CSV) and of
#   NCU_OPS' kernels;
# prof: build with -lineinfo, rows on CUDA, the ncu of all plus scatter_add and topk100;
# test (default): tests, memcheck of test_sort and test_count (SHORT=1: none), rows, peers.
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
# run_tests LIMIT: TESTS on CUDA and NVIDIA OpenCL, memcheck of MEMCHECK's on CUDA, and
# test_index_xbackend, JOBS at a time
run_tests() {
  h200_parallel /tmp/s40-logs 8
  log "tests"
  {
    for be in cuda opencl; do
      for x in $TESTS; do echo "GPUX_BACKEND=$be t $1 $x-$be.log $B/bin/$x"; done
    done
    for x in ${MEMCHECK:-}; do
      echo "GPUX_BACKEND=cuda GPUX_TEST_BIG=${MC_BIG:-65537} t $1 memcheck-$x.log $CS --tool memcheck --error-exitcode 9 $B/bin/$x"
    done
    # RACECHECK: test:filter pairs, at the tests' smallest big size (racecheck is slow)
    for x in ${RACECHECK:-}; do
      echo "GPUX_BACKEND=cuda GPUX_TEST_BIG=65537 GPUX_TEST_FILTER='${x#*:}' t $1 racecheck-${x%%:*}.log $CS --tool racecheck --error-exitcode 9 $B/bin/${x%%:*}"
    done
    echo "t $1 test_index_xbackend.log $B/bin/test_index_xbackend"
  } | xargs -d '\n' -P "$JOBS" -I{} bash -c '{}'
}
peers() {
  for p in ${PEERS:-peers_sort peers_count}; do
    timeout 100 python3 bench/$p.py --reps 5 --md "$OUTDIR/peers.md" 2>&1 | tail -8
  done
}
case "$MODE" in
quick) # the least that checks both kernel sets and reads the fused ends' gain
  # NCU_SORT=1: -lineinfo and the onesweep profile after the rows; UNFUSED_OPS=none: no
  # unfused rows
  H200_CMAKE_ARGS="${H200_CMAKE_ARGS:-} ${NCU_SORT:+-DGPUX_CUDA_NVCC_FLAGS=-lineinfo}" \
    TARGETS=${TARGETS-"test_sort test_count test_index_xbackend gpux-bench"} h200_build
  TESTS=${TESTS:-test_sort test_count} run_tests ${TLIM:-120}
  log "bench"
  bench_rows cuda opencl
  if [ "${UNFUSED_OPS:-}" != none ]; then
    mkdir -p "$OUTDIR/unfused"
    OUTDIR="$OUTDIR/unfused" OPS=${UNFUSED_OPS:-sort_f32,argsort_f32} GPUX_SORT_FUSED=0 bench_rows cuda opencl | sed "s/^/unfused /"
  fi
  [ -n "${NCU_OPS:-}" ] && ncu_ops $NCU_OPS
  [ -n "${NCU_SORT:-}" ] && ncu_sort
  ;;
all) # build (-lineinfo), tests, rows on both backends, peers, the rows of BASE (a carried
  # directory holding a commit's kernels/ and src/) rebuilt in the same tree, ncu
  H200_CMAKE_ARGS="${H200_CMAKE_ARGS:-} -DGPUX_CUDA_NVCC_FLAGS=-lineinfo" \
    TARGETS=${TARGETS-"test_sort test_select test_group test_count test_index_xbackend gpux-bench"} h200_build
  TESTS=${TESTS:-test_sort test_select test_group test_count} run_tests 170
  log "bench"
  bench_rows cuda opencl
  peers
  if [ -n "${BASE:-}" ]; then
    log "base $BASE"
    mkdir -p /tmp/s40-head && cp -a kernels src /tmp/s40-head/ &&
      rm -rf kernels src && cp -a "$BASE/kernels" "$BASE/src" . &&
      cmake --build "$B" --target gpux-bench >"$OUTDIR/build-base.log" 2>&1 &&
      { mkdir -p "$OUTDIR/base"; OUTDIR="$OUTDIR/base" OPS=${BASE_OPS:-$OPS} bench_rows cuda opencl; }
    rm -rf kernels src && cp -a /tmp/s40-head/kernels /tmp/s40-head/src .
  fi
  ncu_sort
  [ -n "${NCU_OPS:-}" ] && ncu_ops $NCU_OPS
  ;;
prof) # build (-lineinfo), rows on CUDA, ncu
  H200_CMAKE_ARGS="${H200_CMAKE_ARGS:-} -DGPUX_CUDA_NVCC_FLAGS=-lineinfo" TARGETS="gpux-bench" h200_build
  bench_rows cuda
  ncu_sort
  ncu_ops scatter_add topk100
  ;;
*) # test: tests (memcheck of test_sort and test_count unless SHORT), rows, peers
  TARGETS=${TARGETS-"test_sort test_select test_group test_count test_index_xbackend gpux-bench"} h200_build
  [ -n "${SHORT:-}" ] || MEMCHECK=${MEMCHECK:-test_sort test_count}
  TESTS=${TESTS:-test_sort test_select test_group test_count} run_tests 170
  log "bench"
  bench_rows cuda opencl
  PEERS=${PEERS:-peers_sort peers_select peers_count} peers
  ;;
esac
log "done"
