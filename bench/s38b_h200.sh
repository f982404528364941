#!/usr/bin/env bash
# Session 38's second GPU call: test_index_xbackend with the differing elements' bits (the
# first call: median / quantile and reduce_by_key mean differed between CUDA and the OpenCL
# contexts), qfin's NaN from bits, reduce_by_key mean's NaN kept canonical, select's first
# histogram pass by runs; racecheck of the sort / select kernels on a few cases (the whole
# tests outlast 170 s under racecheck); top-k / median rows beside PyTorch.
#     source .devdeps/env.sh && bash bench/s38b_h200.sh [OUTDIR]
source "$(dirname "$0")/h200_common.sh" s38b_h200 "$@"
h200_parallel /tmp/s38b-logs 8
TARGETS=${TARGETS-"test_select test_group test_sort test_index_xbackend gpux-bench"} h200_build
log "tests"
CS=/usr/local/cuda/bin/compute-sanitizer
{
  for be in cuda opencl; do
    for x in test_select test_group; do echo "GPUX_BACKEND=$be t 150 $x-$be.log $B/bin/$x"; done
  done
  echo "t 170 test_index_xbackend.log $B/bin/test_index_xbackend"
  echo "GPUX_BACKEND=cuda GPUX_TEST_FILTER='sort_float32' t 200 racecheck-sort_f32.log $CS --tool racecheck --error-exitcode 9 $B/bin/test_sort"
  echo "GPUX_BACKEND=cuda GPUX_TEST_FILTER='sort_int64' t 200 racecheck-sort_i64.log $CS --tool racecheck --error-exitcode 9 $B/bin/test_sort"
  echo "GPUX_BACKEND=cuda GPUX_TEST_FILTER='test_topk' t 200 racecheck-topk.log $CS --tool racecheck --error-exitcode 9 $B/bin/test_select"
  echo "GPUX_BACKEND=cuda GPUX_TEST_FILTER='test_median_quantile' t 200 racecheck-median.log $CS --tool racecheck --error-exitcode 9 $B/bin/test_select"
} | xargs -P "$JOBS" -I{} bash -c '{}'
grep DIFFER /tmp/s38b-logs/test_index_xbackend.log | head -20
log "bench"
for be in cuda opencl; do
  timeout 100 "$B/bin/gpux-bench" --backend $be --device gpu --reps 5 --sizes 2^28 --md "$OUTDIR/rows.md" \
    --op topk100,median,unique_i64 2>&1 | grep -E "^  [a-z]|rror|WRONG"
done
timeout 100 python3 bench/peers_select.py --reps 5 --md "$OUTDIR/peers.md" 2>&1 | tail -6
log "done"
