#!/usr/bin/env bash
# The complex GEMM (issue 23 item 1) on the H100 / H200, in one call (see
# /work/shared/device/README.md):
#
#     source .devdeps/env.sh && bash bench/cgemm_h200.sh [OUTDIR]
#
# 1. build-gpu; 2. test_complex_gemm, test_complex, test_gemm, test_kernel_coverage on CUDA
# and NVIDIA OpenCL; 3. memcheck and racecheck of test_complex_gemm's native cases (CUDA,
# small GT_BIG); 4. gpux-bench gemm_c64 / gemm_c128 at 4096 and 8192 on the vendor (cuBLAS)
# and native paths, and the peers (torch / cupy matmul, cuBLAS cgemm / zgemm underneath):
# the goal is gemm_c64_vendor at 8192 within 3% of torch's complex64 row.
source "$(dirname "$0")/h200_common.sh" cgemm_h200 "$@"
LOGS=${LOGS:-/tmp/cgemm-logs}
mkdir -p "$LOGS"
h200_build
log "tests"
for be in cuda opencl; do
  for x in test_complex_gemm test_complex test_kernel_coverage; do
    GPUX_BACKEND=$be t 200 "$x-$be.log" "$B/bin/$x"
  done
done
GPUX_BACKEND=cuda t 400 test_gemm-cuda.log "$B/bin/test_gemm"
log "sanitizers"
CS=/usr/local/cuda/bin/compute-sanitizer
GPUX_BACKEND=cuda GPUX_TEST_BIG=65537 GPUX_TEST_FILTER='*native*' t 300 memcheck-cgemm.log \
  $CS --tool memcheck --error-exitcode 9 "$B/bin/test_complex_gemm" &
GPUX_BACKEND=cuda GPUX_TEST_BIG=65537 GPUX_TEST_FILTER='*native*' t 300 racecheck-cgemm.log \
  $CS --tool racecheck --error-exitcode 9 "$B/bin/test_complex_gemm" &
wait
log "bench"
timeout 300 "$B/bin/gpux-bench" --backend cuda --device gpu --op gemm_c64,gemm_c128 \
  --gemm-sizes 4096,8192 --gemm-path vendor,native --reps 20 --md "$OUTDIR/rows.md" 2>&1 |
  grep -E "^  gemm|rror|WRONG"
PYTHONUNBUFFERED=1 timeout 300 python3 bench/peers_cgemm.py --sizes 4096,8192 --md "$OUTDIR/rows.md"
grep -h -E 'FAILED|ERROR SUMMARY|RACECHECK SUMMARY' "$LOGS"/*.log > "$OUTDIR/summary.txt"
log "done"
