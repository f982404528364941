#!/usr/bin/env bash
# Complex64 / complex128 (issue 23) on the H200 in one short call (see
# /work/shared/device/README.md). From the repository root there:
#
#     source .devdeps/env.sh && bash bench/complex_h200.sh [OUTDIR]
#
# 1. build-gpu (Release, sm_90);
# 2. at once, JOBS at a time (the tests are small for the GPU; each has a time limit):
#    the complex tests (test_complex*), test_array, test_dlpack, test_promote and
#    test_kernel_coverage on CUDA and on NVIDIA OpenCL; the cross-backend tests (CUDA vs
#    NVIDIA OpenCL vs pocl) of elementwise ops, reductions and random numbers;
#    compute-sanitizer memcheck and racecheck of the complex tests on CUDA at
#    GPUX_TEST_BIG=65537 (RACE=0 leaves racecheck out); fuzz_api on CUDA for FUZZ seconds;
#    LIM seconds a run (default 120), XLIM for the cross-backend runs and
#    test_kernel_coverage, whose pocl and NVIDIA OpenCL builds are slow under load (300);
#    EXTRA: more test binaries to run on both backends (e.g. "test_half test_scan");
# 3. then, on an idle GPU: gpux-bench rows of complex64 add / sum / cumsum / exp / randn
#    (2^27: 1 GiB an array), float32 add / sum (2^28, the same bytes), gemm_c64 at 8192
#    (vendor = cuBLAS, native), float16 / bfloat16 sum and cumsum at 2^29, and the peers'
#    figures for the same ops from this call; SASS of the float16 sum kernels (sass-f16.txt).
# summary.txt (one line a run), rows.md, peers.md and the tails of failed runs go to OUTDIR,
# written as they come (a call cut short still returns what was done); full logs to LOGS.
source "$(dirname "$0")/h200_common.sh" complex_h200 "$@"
h200_parallel /tmp/complex-logs 8
h200_build
CX=$(cd "$B/bin" && ls | grep -E '^test_complex' | tr '\n' ' ')
log "tests: $CX"
CS=/usr/local/cuda/bin/compute-sanitizer
{
  for x in $CX; do
    echo "GPUX_BACKEND=cuda GPUX_TEST_BIG=65537 t 150 memcheck-$x.log $CS --tool memcheck --error-exitcode 9 $B/bin/$x"
    [ "${RACE:-1}" = 0 ] ||
      echo "GPUX_BACKEND=cuda GPUX_TEST_BIG=65537 t 330 racecheck-$x.log $CS --tool racecheck --error-exitcode 9 $B/bin/$x"
  done
  for be in cuda opencl; do
    for x in $CX test_array test_dlpack test_promote ${EXTRA:-}; do
      echo "GPUX_BACKEND=$be t ${LIM:-120} $x-$be.log $B/bin/$x"
    done
    echo "GPUX_BACKEND=$be t ${XLIM:-300} test_kernel_coverage-$be.log $B/bin/test_kernel_coverage"
  done
  for x in test_elementwise_xbackend test_reduce_xbackend test_random_xbackend; do
    echo "t ${XLIM:-300} $x.log $B/bin/$x"
  done
  echo "GPUX_BACKEND=cuda GPUX_FUZZ_SECONDS=${FUZZ:-30} t 80 fuzz-cuda.log $B/bin/fuzz_api"
} | xargs -P "$JOBS" -I{} bash -c '{}'
log "bench"
bench() { timeout 120 "$B/bin/gpux-bench" --device gpu --md "$OUTDIR/rows.md" "$@" 2>&1 | grep -E "^  [a-z]|rror|WRONG"; }
bench --backend cuda --reps 20 --op add,sum,cumsum,exp,randn --dtype complex64 --sizes 2^27
bench --backend cuda --reps 20 --op add,sum --dtype float32 --sizes 2^28
bench --backend cuda --reps 5 --op gemm_c64 --gemm-sizes 8192
timeout 90 python3 bench/peers_cgemm.py --sizes 8192 --dtypes complex64 --reps 5 --md "$OUTDIR/peers.md" 2>&1 | tail -3
for dt in float16 bfloat16; do bench --backend cuda --reps 20 --op sum,cumsum --dtype $dt --sizes 2^29; done
timeout 120 python3 bench/peers_dtypes.py --md "$OUTDIR/peers.md" --rows \
  complex64:add:2^27,complex64:sum:2^27,complex64:cumsum:2^27,float16:sum:2^29,bfloat16:sum:2^29,float16:cumsum:2^29 2>&1 | tail -8
/usr/local/cuda/bin/cuobjdump -sass "$B/src/backend_cuda/reduce.fatbin" 2>/dev/null |
  awk '/Function : /{p = /Function : gpux_reduce_sum_f16_/} p' | head -600 >"$OUTDIR/sass-f16.txt"
log "done"
