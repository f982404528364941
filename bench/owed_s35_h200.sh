#!/usr/bin/env bash
# What session 35 left owed on the GPU machine (issue 23's last checks, issue 24 item 4's first
# GPU run), in one call (see /work/shared/device/README.md). From the repository root there:
#
#     source .devdeps/env.sh && bash bench/owed_s35_h200.sh [OUTDIR]
#
# 1. build-gpu; 2. test_kernel_coverage on NVIDIA OpenCL started first, with few runs beside it
#    (its cold NVIDIA OpenCL builds of both forms outlasted 300 s beside 12 runs twice);
#    beside it: test_gemm and test_complex_gemm on NVIDIA OpenCL (gemm.cl split into dtype
#    parts in ba59044), test_assemble / test_array / test_transfer on both backends,
#    compute-sanitizer racecheck of test_complex_gemm's dot_complex128_native (over 300 s
#    under the tool) and memcheck of test_assemble on CUDA, fuzz_api on CUDA;
# 3. on an idle GPU: gpux-bench concat / concat1 / roll at 2^28 float32 on both backends
#    beside torch.cat / cupy.concatenate / roll (bench/peers_assemble.py; goal: concatenate
#    >= 4.0 TB/s on an H200, OpenCL within 15% of CUDA).
# summary.txt (one line a run), rows.md and the tails of failed runs go to OUTDIR.
source "$(dirname "$0")/h200_common.sh" owed_s35_h200 "$@"
h200_parallel /tmp/owed35-logs 6
h200_build
CS=/usr/local/cuda/bin/compute-sanitizer
GPUX_BACKEND=opencl t 480 test_kernel_coverage-opencl.log "$B/bin/test_kernel_coverage" &
{
  echo "GPUX_BACKEND=cuda GPUX_TEST_BIG=65537 GPUX_TEST_FILTER='dot_complex128_native' t 450 racecheck-dot-c128.log $CS --tool racecheck --error-exitcode 9 $B/bin/test_complex_gemm"
  for x in test_gemm test_complex_gemm; do echo "GPUX_BACKEND=opencl t 300 $x-opencl.log $B/bin/$x"; done
  for be in cuda opencl; do
    for x in test_assemble test_array test_transfer; do echo "GPUX_BACKEND=$be t 200 $x-$be.log $B/bin/$x"; done
  done
  echo "GPUX_BACKEND=cuda GPUX_TEST_BIG=65537 t 200 memcheck-assemble.log $CS --tool memcheck --error-exitcode 9 $B/bin/test_assemble"
  echo "GPUX_BACKEND=cuda GPUX_FUZZ_SECONDS=${FUZZ:-30} t 80 fuzz-cuda.log $B/bin/fuzz_api"
} | xargs -P "$JOBS" -I{} bash -c '{}'
wait
log "bench"
for be in cuda opencl; do
  timeout 120 "$B/bin/gpux-bench" --backend $be --device gpu --reps 20 --op concat,concat1,roll \
    --sizes 2^28 --md "$OUTDIR/rows.md" 2>&1 | grep -E "^  [a-z]|rror|WRONG"
done
timeout 120 python3 bench/peers_assemble.py --sizes 2^28 --md "$OUTDIR/rows.md" 2>&1 | tail -6
log "done"
