#!/usr/bin/env bash
# Session 33's complex64 / complex128 first part (creation, casts of every pair, 16-byte
# copies, DLPack, the rejections) on the H200, in one call (see /work/shared/device/README.md):
#
#     source .devdeps/env.sh && bash bench/complex1_h200.sh [OUTDIR]
#
# 1. build-gpu; 2. test_complex, test_array, test_dlpack, test_promote, test_kernel_coverage
# on CUDA and NVIDIA OpenCL, fuzz_api on CUDA for FUZZ seconds; 3. memcheck of test_complex
# and test_array (CUDA); racecheck of test_gemm's integer cases at a small GT_BIG; 4. sums of
# int8 / bfloat16 / float16 (the reduce kernels' registers grew with the 16-byte scalar).
source "$(dirname "$0")/h200_common.sh" complex1_h200 "$@"
t() { # t LIMIT LOG cmd...
  local lim=$1 lf=$2
  shift 2
  timeout "$lim" "$@" >"$LOGS/$lf" 2>&1
  echo "  $lf: exit $?; $(grep -E 'PASSED|FAILED|cases in|SUMMARY|SKIP' "$LOGS/$lf" | tail -2 | tr '\n' ' ')"
}
LOGS=${LOGS:-/tmp/complex1-logs}
mkdir -p "$LOGS"
h200_build
log "tests"
for be in cuda opencl; do
  for x in test_complex test_array test_dlpack test_promote test_kernel_coverage; do
    GPUX_BACKEND=$be t 150 "$x-$be.log" "$B/bin/$x"
  done
done
GPUX_BACKEND=cuda GPUX_FUZZ_SECONDS=${FUZZ:-30} t $((${FUZZ:-30} + 40)) fuzz-cuda.log "$B/bin/fuzz_api"
log "sanitizers"
CS=/usr/local/cuda/bin/compute-sanitizer
GPUX_BACKEND=cuda t 240 memcheck-complex.log $CS --tool memcheck --error-exitcode 9 "$B/bin/test_complex" &
GPUX_BACKEND=cuda t 240 memcheck-array.log $CS --tool memcheck --error-exitcode 9 "$B/bin/test_array" &
GPUX_BACKEND=cuda GPUX_TEST_BIG=65537 GPUX_TEST_FILTER='*int*' t 240 racecheck-gemm-int.log \
  $CS --tool racecheck --error-exitcode 9 "$B/bin/test_gemm" &
wait
log "bench"
bench() { timeout 90 "$B/bin/gpux-bench" --device gpu --reps 20 --md "$OUTDIR/rows.md" "$@" 2>&1 | grep -E "^  [a-z]|rror"; }
bench --backend cuda --op sum --dtype int8 --sizes 2^30
for dt in bfloat16 float16 int16; do bench --backend cuda --op sum --dtype $dt --sizes 2^29; done
bench --backend cuda --op sum --dtype float32 --sizes 2^28
grep -h -E 'FAILED|ERROR SUMMARY|RACECHECK SUMMARY|cases in' "$LOGS"/*.log > "$OUTDIR/summary.txt"
log "done"
