#!/usr/bin/env bash
# Session 36's last GPU call: issue 24's gather / put, masks, scatter and counting on the H200
# (see /work/shared/device/README.md). From the repository root there:
#
#     source .devdeps/env.sh && bash bench/s36b_h200.sh [OUTDIR]
#
# 1. build-gpu; at once, JOBS at a time: test_index / test_mask / test_count / test_scan on
#    CUDA and NVIDIA OpenCL, test_index_xbackend (CUDA vs NVIDIA OpenCL vs pocl, bits),
#    compute-sanitizer memcheck of the three new tests and racecheck of test_mask /
#    test_count (their shared-memory counters and tile ranks) on CUDA, the filter_groupby
#    example on both backends, fuzz_api on CUDA;
# 2. on an idle GPU: gpux-bench take / take_seq / compress / nonzero / bincount /
#    scatter_add / scatter_add_i32 at 2^28 on both backends, beside PyTorch's and CuPy's
#    figures from this call (bench/peers_index.py, peers_mask.py, peers_count.py).
# SLIM=<seconds>: every test run's limit, no racecheck, fewer bench repetitions (a short
# device budget); rows.md and peers.md are written as they come.
source "$(dirname "$0")/h200_common.sh" s36b_h200 "$@"
h200_parallel /tmp/s36b-logs 12
TARGETS=${TARGETS-"test_index test_mask test_count test_scan test_index_xbackend filter_groupby gpux-bench fuzz_api"} h200_build
CS=/usr/local/cuda/bin/compute-sanitizer
{
  for be in cuda opencl; do
    for x in test_index test_mask test_count test_scan; do echo "GPUX_BACKEND=$be t ${SLIM:-150} $x-$be.log $B/bin/$x"; done
    echo "GPUX_BACKEND=$be t 60 filter_groupby-$be.log $B/bin/filter_groupby"
  done
  echo "t 170 test_index_xbackend.log $B/bin/test_index_xbackend"
  for x in test_index test_mask test_count; do
    echo "GPUX_BACKEND=cuda t ${SLIM:-150} memcheck-$x.log $CS --tool memcheck --error-exitcode 9 $B/bin/$x"
  done
  [ -n "${SLIM:-}" ] || for x in test_mask test_count; do
    echo "GPUX_BACKEND=cuda t 170 racecheck-$x.log $CS --tool racecheck --error-exitcode 9 $B/bin/$x"
  done
  echo "GPUX_BACKEND=cuda GPUX_FUZZ_SECONDS=${FUZZ:-20} t 60 fuzz-cuda.log $B/bin/fuzz_api"
} | xargs -P "$JOBS" -I{} bash -c '{}'
log "bench"
REPS=10
[ -z "${SLIM:-}" ] || REPS=5
for be in cuda opencl; do
  timeout 150 "$B/bin/gpux-bench" --backend $be --device gpu --reps $REPS --sizes 2^28 --md "$OUTDIR/rows.md" \
    --op take,take_seq,compress,nonzero,bincount,scatter_add,scatter_add_i32 2>&1 | grep -E "^  [a-z]|rror|WRONG"
done
for p in peers_index peers_mask peers_count; do
  timeout 100 python3 bench/$p.py --reps 5 --md "$OUTDIR/peers.md" 2>&1 | tail -8
done
log "done"
