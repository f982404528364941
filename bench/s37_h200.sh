#!/usr/bin/env bash
# Session 37's GPU call: issue 25's sort and select families on a GPU for the first time, and
# issue 24's bincount / scatter rows after the unrolled loads (see /work/shared/device/README.md).
#
#     source .devdeps/env.sh && bash bench/s37_h200.sh [OUTDIR]
#
# 1. build-gpu (the test and bench targets only); JOBS at a time: test_sort / test_select /
#    test_group and the groupby_topk example on
#    CUDA and NVIDIA OpenCL (both kernel forms there: the GPU form is NVIDIA's default),
#    compute-sanitizer memcheck and racecheck of both on CUDA, test_count on both backends,
#    test_mask on NVIDIA OpenCL timed alone (it outlasted 150 s in the 12-job batch of s36b),
#    test_index_xbackend (issue 24's and 25's functions: CUDA vs NVIDIA OpenCL vs pocl, bits),
#    fuzz_api on CUDA;
# SHORT=1 (a short device budget): no sanitizers, no test_mask run.
# 2. on an idle GPU: gpux-bench sort / select rows and bincount / scatter_add rows at 2^28 on
#    both backends, beside PyTorch and CuPy (bench/peers_sort.py, peers_select.py,
#    peers_count.py) from this call.
source "$(dirname "$0")/h200_common.sh" s37_h200 "$@"
h200_parallel /tmp/s37-logs 8
TARGETS=${TARGETS-"test_sort test_select test_group test_count test_mask groupby_topk test_index_xbackend gpux-bench fuzz_api"} h200_build
CS=/usr/local/cuda/bin/compute-sanitizer
{
  for be in cuda opencl; do
    for x in test_sort test_select test_group test_count; do echo "GPUX_BACKEND=$be t 150 $x-$be.log $B/bin/$x"; done
    echo "GPUX_BACKEND=$be t 60 groupby_topk-$be.log $B/bin/groupby_topk"
  done
  [ -n "${SHORT:-}" ] || for x in test_sort test_select; do
    echo "GPUX_BACKEND=cuda t 150 memcheck-$x.log $CS --tool memcheck --error-exitcode 9 $B/bin/$x"
    echo "GPUX_BACKEND=cuda t 150 racecheck-$x.log $CS --tool racecheck --error-exitcode 9 $B/bin/$x"
  done
  echo "t 170 test_index_xbackend.log $B/bin/test_index_xbackend"
  echo "GPUX_BACKEND=cuda GPUX_FUZZ_SECONDS=20 t 60 fuzz-cuda.log $B/bin/fuzz_api"
} | xargs -P "$JOBS" -I{} bash -c '{}'
if [ -z "${SHORT:-}" ]; then
  log "test_mask opencl alone"
  GPUX_BACKEND=opencl t 100 test_mask-opencl.log bash -c "time $B/bin/test_mask"
fi
log "bench"
for be in cuda opencl; do
  timeout 150 "$B/bin/gpux-bench" --backend $be --device gpu --reps 5 --sizes 2^28 --md "$OUTDIR/rows.md" \
    --op sort_f32,argsort_f32,sort_pairs_i32,topk100,median,unique_i64,bincount,scatter_add,scatter_add_i32 2>&1 |
    grep -E "^  [a-z]|rror|WRONG"
  timeout 60 "$B/bin/gpux-bench" --backend $be --device gpu --reps 5 --sizes 2^24 --md "$OUTDIR/rows.md" \
    --op searchsorted,sort_f32 2>&1 | grep -E "^  [a-z]|rror|WRONG"
done
for p in peers_sort peers_select peers_count; do
  timeout 100 python3 bench/$p.py --reps 5 --md "$OUTDIR/peers.md" 2>&1 | tail -8
done
log "done"
