#!/usr/bin/env bash
# The complex scans (issue 23: complex128 cumprod, native complex cumsum) on the GPU machine in
# one call (see /work/shared/device/README.md). From the repository root there:
#
#     source .devdeps/env.sh && bash bench/cxscan_h200.sh [OUTDIR]
#
# 1. build-gpu; 2. JOBS at a time, each with a time limit: test_complex_reduce, test_scan,
#    test_complex on CUDA and NVIDIA OpenCL, test_kernel_coverage (the CUDA fatbin's names
#    and both OpenCL forms' programs), the reduce cross-backend test (CUDA vs NVIDIA OpenCL
#    vs pocl, complex scans included), fuzz_api on CUDA; compute-sanitizer racecheck of the
#    scans (test_complex_reduce's scan cases, test_scan: the new 5-word tile states and the
#    unstaged complex128 path) and memcheck of test_complex_reduce, and racecheck of the
#    complex GEMM cases an earlier call's limit cut (the native dot / gemv / edge cases);
# 3. on an idle GPU: gpux-bench cumsum of complex64 (2^27), complex128 (2^26), float32 (2^28)
#    and float64 (2^27), the same bytes; NVIDIA OpenCL complex64 cumsum; the peers' cumsum.
# summary.txt (one line a run), rows.md, peers.md and the tails of failed runs go to OUTDIR.
source "$(dirname "$0")/h200_common.sh" cxscan_h200 "$@"
h200_parallel /tmp/cxscan-logs 10
h200_build
CS=/usr/local/cuda/bin/compute-sanitizer
{
  echo "GPUX_BACKEND=cuda t 330 test_kernel_coverage.log $B/bin/test_kernel_coverage"
  for be in cuda opencl; do
    for x in test_complex_reduce test_scan test_complex; do
      echo "GPUX_BACKEND=$be t 240 $x-$be.log $B/bin/$x"
    done
  done
  echo "t 300 test_reduce_xbackend.log $B/bin/test_reduce_xbackend"
  echo "GPUX_BACKEND=cuda GPUX_FUZZ_SECONDS=${FUZZ:-30} t 80 fuzz-cuda.log $B/bin/fuzz_api"
  echo "GPUX_BACKEND=cuda GPUX_TEST_BIG=70001 GPUX_TEST_FILTER='*scan*' t 300 racecheck-cxscan.log $CS --tool racecheck --error-exitcode 9 $B/bin/test_complex_reduce"
  echo "GPUX_BACKEND=cuda GPUX_TEST_BIG=65537 t 300 racecheck-scan.log $CS --tool racecheck --error-exitcode 9 $B/bin/test_scan"
  echo "GPUX_BACKEND=cuda GPUX_TEST_BIG=70001 t 300 memcheck-cxreduce.log $CS --tool memcheck --error-exitcode 9 $B/bin/test_complex_reduce"
  for f in '*dot*native*' '*gemv*native*' '*edge*native*'; do
    echo "GPUX_BACKEND=cuda GPUX_TEST_BIG=65537 GPUX_TEST_FILTER='$f' t 300 racecheck-cgemm-${f//\*/}.log $CS --tool racecheck --error-exitcode 9 $B/bin/test_complex_gemm"
  done
} | xargs -P "$JOBS" -I{} bash -c '{}'
log "bench"
bench() { timeout 120 "$B/bin/gpux-bench" --device gpu --md "$OUTDIR/rows.md" "$@" 2>&1 | grep -E "^  [a-z]|rror|WRONG"; }
bench --backend cuda --reps 20 --op cumsum --dtype complex64 --sizes 2^27
bench --backend cuda --reps 20 --op cumsum --dtype complex128 --sizes 2^26
bench --backend cuda --reps 20 --op cumsum --dtype float32 --sizes 2^28
bench --backend cuda --reps 20 --op cumsum --dtype float64 --sizes 2^27
bench --backend opencl --reps 10 --op cumsum --dtype complex64 --sizes 2^27
timeout 90 python3 bench/peers_dtypes.py --md "$OUTDIR/peers.md" --rows \
  complex64:cumsum:2^27,complex128:cumsum:2^26,float32:cumsum:2^28 2>&1 | tail -4
log "done"
