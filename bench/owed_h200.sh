#!/usr/bin/env bash
# What session 32 landed without the H200 (its device time was spent), in one call of at
# most 600 s (see /work/shared/device/README.md). From the repository root there:
#
#     source .devdeps/env.sh && bash bench/owed_h200.sh [OUTDIR]
#
# 1. build-gpu (Release, sm_90; about 80 s on 16 cores);
# 2. CUDA: test_gemm (integer products of every width, e3f75d6), test_random
#    (gpux_random_integers_u64, 2b20282), test_reduce (the packed lanes of 8c999c8);
#    NVIDIA OpenCL: test_gemm (the GPU form's integer kernels), test_random; the random
#    cross-backend test (CUDA vs NVIDIA OpenCL vs pocl, the closed uint64 draws included);
#    fuzz_api on CUDA for FUZZ seconds (default 40);
# 3. gpux-bench (host generation and checks now on every core): sums of the 1- and 2-byte
#    dtypes and bfloat16 at 2^29 / 2^30 (the goal: bfloat16 sum >= 4 TB/s), and PyTorch /
#    CuPy's sums of the same (bench/peers_dtypes.py); gemm_int rows (native path; no peer
#    multiplies integers in their own width: PyTorch's torch._int_mm is int8 -> int32).
# Logs go to OUTDIR (default $OUT); each step has its own time limit, so one slow step does
# not take the rest of the call.
source "$(dirname "$0")/h200_common.sh" owed_h200 "$@"

h200_build

log "tests"
GPUX_BACKEND=cuda t 120 gemm-cuda.log "$B/bin/test_gemm"
GPUX_BACKEND=cuda t 90 random-cuda.log "$B/bin/test_random"
GPUX_BACKEND=cuda t 90 reduce-cuda.log "$B/bin/test_reduce"
GPUX_BACKEND=opencl t 150 gemm-opencl.log "$B/bin/test_gemm"
GPUX_BACKEND=opencl t 90 random-opencl.log "$B/bin/test_random"
t 120 random-xbackend.log "$B/bin/test_random_xbackend"
GPUX_BACKEND=cuda GPUX_FUZZ_SECONDS=${FUZZ:-40} t $((${FUZZ:-40} + 40)) fuzz-cuda.log "$B/bin/fuzz_api"

log "bench"
bench() { timeout 90 "$B/bin/gpux-bench" --device gpu --reps 20 --md "$OUTDIR/rows.md" "$@" 2>&1 | grep -E "^  [a-z]|rror"; }
bench --backend cuda --op sum --dtype int8 --sizes 2^30
bench --backend cuda --op sum --dtype uint8 --sizes 2^30
for dt in int16 uint16 bfloat16 float16; do bench --backend cuda --op sum --dtype $dt --sizes 2^29; done
bench --backend cuda --op sum --dtype float32 --sizes 2^28
for dt in int8 int16 int32 uint64; do bench --backend cuda --op gemm_int --dtype $dt --gemm-sizes 4096; done
bench --backend opencl --op sum --dtype int8 --sizes 2^28
bench --backend opencl --op gemm_int --dtype int8 --gemm-sizes 4096
timeout 120 python3 bench/peers_dtypes.py --md "$OUTDIR/peers.md" --rows \
  int8:sum:2^30,uint8:sum:2^30,int16:sum:2^29,uint16:sum:2^29,bfloat16:sum:2^29,float16:sum:2^29 \
  2>&1 | tail -8
log "done"
