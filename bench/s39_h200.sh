#!/usr/bin/env bash
# Session 39's GPU call (see /work/shared/device/README.md): the sort's Onesweep passes
# (kernels/cuda/sort.cu, kernels/cl/sort.cl: first run on a GPU), bincount_into's check in its
# count pass, select's work-group-per-row scan (8f88772, first run on a GPU), and whatever of
# the top-k candidate path / OpenCL mask staging landed.
#
#     source .devdeps/env.sh && bash bench/s39_h200.sh [OUTDIR]
#
# 1. build-gpu (test and bench targets only); JOBS at a time: test_sort / select / group /
#    count / mask on CUDA and NVIDIA OpenCL, memcheck + racecheck of test_sort on CUDA,
#    test_index_xbackend (CUDA vs NVIDIA OpenCL vs pocl, bits); SHORT=1: no sanitizers;
# 2. gpux-bench rows at 2^28 on both backends beside PyTorch and CuPy from this call.
source "$(dirname "$0")/h200_common.sh" s39_h200 "$@"
h200_parallel /tmp/s39-logs 8
TARGETS=${TARGETS-"test_sort test_select test_group test_count test_mask test_index_xbackend gpux-bench"} h200_build
log "tests"
CS=/usr/local/cuda/bin/compute-sanitizer
{
  for be in cuda opencl; do
    for x in ${TESTS:-test_sort test_select test_group test_count test_mask}; do echo "GPUX_BACKEND=$be t 170 $x-$be.log $B/bin/$x"; done
  done
  [ -n "${SHORT:-}" ] || for x in test_sort; do
    echo "GPUX_BACKEND=cuda t 170 memcheck-$x.log $CS --tool memcheck --error-exitcode 9 $B/bin/$x"
    echo "GPUX_BACKEND=cuda t 170 racecheck-$x.log $CS --tool racecheck --error-exitcode 9 $B/bin/$x"
  done
  echo "t 170 test_index_xbackend.log $B/bin/test_index_xbackend"
} | xargs -P "$JOBS" -I{} bash -c '{}'
log "bench"
for be in cuda opencl; do
  timeout 150 "$B/bin/gpux-bench" --backend $be --device gpu --reps 5 --sizes 2^28 --md "$OUTDIR/rows.md" \
    --op ${OPS:-sort_f32,argsort_f32,sort_pairs_i32,unique_i64,topk100,median,bincount,compress,nonzero} 2>&1 |
    grep -E "^  [a-z]|rror|WRONG"
done
timeout 60 "$B/bin/gpux-bench" --backend cuda --device gpu --reps 5 --sizes 2^24 --md "$OUTDIR/rows.md" \
  --op sort_f32,argsort_f32 2>&1 | grep -E "^  [a-z]|rror|WRONG"
for p in ${PEERS:-peers_sort peers_select peers_count}; do
  timeout 100 python3 bench/$p.py --reps 5 --md "$OUTDIR/peers.md" 2>&1 | tail -8
done
log "done"
