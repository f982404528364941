#!/usr/bin/env bash
# Session 36's first short GPU call after owed_s35_h200.sh (see /work/shared/device/README.md).
# From the repository root there:
#
#     source .devdeps/env.sh && bash bench/s36a_h200.sh [OUTDIR]
#
# 1. build-gpu; test_kernel_coverage on NVIDIA OpenCL (now the GPU form only) in the
#    background, test_array / test_assemble on both backends (gpux__nd_widen's copies);
# 2. on the GPU (the coverage test only compiles on the CPU): issue 23's goal rows on an H200
#    -- int8 add 2^30, float16 add 2^29, bfloat16 / float16 sum 2^29, complex64 GEMM 8192
#    (vendor, native) -- and concat / concat1 / roll at 2^28 on both backends, each beside
#    PyTorch's and CuPy's figures from this call.
source "$(dirname "$0")/h200_common.sh" s36a_h200 "$@"
h200_parallel /tmp/s36a-logs 4
h200_build
GPUX_BACKEND=opencl t 450 test_kernel_coverage-opencl.log "$B/bin/test_kernel_coverage" &
{
  for be in cuda opencl; do
    for x in test_array test_assemble; do echo "GPUX_BACKEND=$be t 200 $x-$be.log $B/bin/$x"; done
  done
} | xargs -P "$JOBS" -I{} bash -c '{}'
log "bench"
bench() { timeout 150 "$B/bin/gpux-bench" --device gpu --md "$OUTDIR/rows.md" "$@" 2>&1 | grep -E "^  [a-z]|rror|WRONG"; }
bench --backend cuda --reps 20 --op add,sum --dtype int8 --sizes 2^30
for dt in float16 bfloat16; do bench --backend cuda --reps 20 --op add,sum --dtype $dt --sizes 2^29; done
bench --backend cuda --reps 20 --op add,sum --dtype float32 --sizes 2^28
bench --backend cuda --reps 5 --op gemm_c64 --gemm-sizes 8192
for be in cuda opencl; do bench --backend $be --reps 20 --op concat,concat1,roll --sizes 2^28; done
timeout 150 python3 bench/peers_dtypes.py --md "$OUTDIR/peers.md" --rows \
  int8:add:2^30,int8:sum:2^30,float16:add:2^29,float16:sum:2^29,bfloat16:add:2^29,bfloat16:sum:2^29,float32:add:2^28,float32:sum:2^28 2>&1 | tail -9
timeout 90 python3 bench/peers_cgemm.py --sizes 8192 --dtypes complex64 --reps 5 --md "$OUTDIR/peers.md" 2>&1 | tail -3
timeout 120 python3 bench/peers_assemble.py --sizes 2^28 --md "$OUTDIR/peers.md" 2>&1 | tail -6
log "waiting for test_kernel_coverage"
wait
log "done"
