#!/usr/bin/env bash
# The complex reductions, scans and normals (issue 23, cx-red) on the GPU machine, in one call
# (see /work/shared/device/README.md); written where no GPU could run them, so the CUDA half
# is first exercised here:
#
#     source .devdeps/env.sh && bash bench/complex_red_h200.sh [OUTDIR]
#
# 1. build-gpu; 2. test_complex_reduce (CUDA, NVIDIA OpenCL, and its GPU form forced),
# test_complex, test_reduce / test_scan / test_random on CUDA (the real kinds beside the
# complex ones), the cross-backend tests (complex cases: CUDA vs OpenCL vs the canonical CPU
# reference, bit for bit), fuzz_api on CUDA; 3. memcheck and racecheck of
# test_complex_reduce on CUDA (the look-back of complex64 cumprod, 8-byte tile states);
# 4. complex64 / complex128 sums and cumsum against float32 / float64 of the same bytes
# (gpux-bench, where it knows the complex dtypes).
source "$(dirname "$0")/h200_common.sh" complex_red_h200 "$@"
LOGS=${LOGS:-/tmp/complex-red-logs}
mkdir -p "$LOGS"
h200_build
log "tests"
GPUX_BACKEND=cuda t 200 complex_reduce-cuda.log "$B/bin/test_complex_reduce"
GPUX_BACKEND=opencl t 300 complex_reduce-opencl.log "$B/bin/test_complex_reduce"
GPUX_BACKEND=opencl GPUX_OPENCL_REDUCE=gpu t 300 complex_reduce-opencl-gpu.log "$B/bin/test_complex_reduce"
for x in test_complex test_reduce test_scan test_random; do
  GPUX_BACKEND=cuda t 300 "$x-cuda.log" "$B/bin/$x"
done
t 300 reduce_xbackend.log "$B/bin/test_reduce_xbackend"
t 300 random_xbackend.log "$B/bin/test_random_xbackend"
GPUX_BACKEND=cuda GPUX_FUZZ_SECONDS=${FUZZ:-30} t $((${FUZZ:-30} + 40)) fuzz-cuda.log "$B/bin/fuzz_api"
log "sanitizers"
CS=/usr/local/cuda/bin/compute-sanitizer
GPUX_BACKEND=cuda GPUX_TEST_BIG=70001 t 400 memcheck-complex-reduce.log \
  $CS --tool memcheck --error-exitcode 9 "$B/bin/test_complex_reduce" &
GPUX_BACKEND=cuda GPUX_TEST_BIG=70001 GPUX_TEST_FILTER='*scan*' t 400 racecheck-complex-scan.log \
  $CS --tool racecheck --error-exitcode 9 "$B/bin/test_complex_reduce" &
wait
log "bench"
bench() { timeout 90 "$B/bin/gpux-bench" --device gpu --reps 20 --md "$OUTDIR/rows.md" "$@" 2>&1 | grep -E "^  [a-z]|rror"; }
for dt in float32 complex64 float64 complex128; do
  bench --backend cuda --op sum --dtype $dt --sizes 2^27
  bench --backend cuda --op cumsum --dtype $dt --sizes 2^26
done
grep -h -E 'FAILED|DIFFER|REF  |ERROR SUMMARY|RACECHECK SUMMARY|cases in|comparisons' "$LOGS"/*.log > "$OUTDIR/summary.txt"
log "done"
