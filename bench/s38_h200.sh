#!/usr/bin/env bash
# Session 38's GPU call (see /work/shared/device/README.md): issue 25's sort / select / group
# families on a GPU for the first time (s37_h200.sh never found a machine), the exact
# scatter-add's window (adf799f) and the CUDA launcher shared by every family (cx-mend).
#
#     source .devdeps/env.sh && bash bench/s38_h200.sh [OUTDIR]
#
# 1. build-gpu (the test and bench targets only); JOBS at a time: test_sort / select / group /
#    count / index / mask and groupby_topk on CUDA and NVIDIA OpenCL, test_reduce / test_scan
#    on CUDA (their launches moved to the shared launcher), compute-sanitizer memcheck and
#    racecheck of sort / select / count on CUDA, test_index_xbackend (CUDA vs NVIDIA OpenCL vs
#    pocl, bits), fuzz_api on CUDA; SHORT=1: no sanitizers;
# 2. on an idle GPU: gpux-bench rows at 2^28 on both backends beside PyTorch and CuPy
#    (bench/peers_sort.py, peers_select.py, peers_count.py) from this call.
source "$(dirname "$0")/h200_common.sh" s38_h200 "$@"
h200_parallel /tmp/s38-logs 8
TARGETS=${TARGETS-"test_sort test_select test_group test_count test_index test_mask test_reduce test_scan groupby_topk test_index_xbackend gpux-bench fuzz_api"} h200_build
log "tests"
CS=/usr/local/cuda/bin/compute-sanitizer
{
  for be in cuda opencl; do
    for x in test_sort test_select test_group test_count test_index; do echo "GPUX_BACKEND=$be t 150 $x-$be.log $B/bin/$x"; done
    echo "GPUX_BACKEND=$be t 60 groupby_topk-$be.log $B/bin/groupby_topk"
  done
  for x in test_mask test_reduce test_scan; do echo "GPUX_BACKEND=cuda t 170 $x-cuda.log $B/bin/$x"; done
  [ -n "${SHORT:-}" ] || for x in test_sort test_select test_count; do
    echo "GPUX_BACKEND=cuda t 170 memcheck-$x.log $CS --tool memcheck --error-exitcode 9 $B/bin/$x"
    echo "GPUX_BACKEND=cuda GPUX_TEST_BIG=65537 t 170 racecheck-$x.log $CS --tool racecheck --error-exitcode 9 $B/bin/$x"
  done
  echo "t 170 test_index_xbackend.log $B/bin/test_index_xbackend"
  echo "GPUX_BACKEND=cuda GPUX_FUZZ_SECONDS=20 t 60 fuzz-cuda.log $B/bin/fuzz_api"
} | xargs -P "$JOBS" -I{} bash -c '{}'
log "bench"
for be in cuda opencl; do
  timeout 150 "$B/bin/gpux-bench" --backend $be --device gpu --reps 5 --sizes 2^28 --md "$OUTDIR/rows.md" \
    --op scatter_add,scatter_add_i32,bincount,sort_f32,argsort_f32,sort_pairs_i32,topk100,median,unique_i64 2>&1 |
    grep -E "^  [a-z]|rror|WRONG"
done
timeout 60 "$B/bin/gpux-bench" --backend cuda --device gpu --reps 5 --sizes 2^24 --md "$OUTDIR/rows.md" \
  --op searchsorted,sort_f32,argsort_f32 2>&1 | grep -E "^  [a-z]|rror|WRONG"
for p in peers_count peers_sort peers_select; do
  timeout 100 python3 bench/$p.py --reps 5 --md "$OUTDIR/peers.md" 2>&1 | tail -8
done
log "done"
