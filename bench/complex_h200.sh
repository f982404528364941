#!/usr/bin/env bash
# Complex64 / complex128 (issue 23) on the H200 in one call of at most 600 s (see
# /work/shared/device/README.md). From the repository root there:
#
#     source .devdeps/env.sh && bash bench/complex_h200.sh [OUTDIR]
#
# 1. build-gpu (Release, sm_90);
# 2. tests on CUDA and on NVIDIA OpenCL: every test whose name has "complex", test_array,
#    test_dlpack, test_promote, test_kernel_coverage; the cross-backend tests (CUDA vs NVIDIA
#    OpenCL vs pocl) of the elementwise ops, reductions and random numbers; fuzz_api on CUDA
#    for FUZZ seconds (default 30);
# 3. compute-sanitizer memcheck of the complex tests on CUDA (in the background, while 4 runs);
# 4. gpux-bench rows: add / copy / sum / cumsum / exp / randn of complex64 (2^27: 1 GiB an
#    array) and complex128 (2^26), gemm_c64 at 8192 (vendor = cuBLAS cgemm, native) and
#    gemm_c128 at 4096; the peers' figures for the same (bench/peers_dtypes.py,
#    bench/peers_cgemm.py) from the same call.
# Short summaries go to OUTDIR (rows.md, peers.md, summary.txt); the many logs to LOGS
# (default /tmp/complex-logs), whose failures are copied to OUTDIR/fail-*.log.
source "$(dirname "$0")/h200_common.sh" complex_h200 "$@"
LOGS=${LOGS:-/tmp/complex-logs}
mkdir -p "$LOGS"
t() { # t LIMIT LOG cmd...: a time limit; a failing run's log tail is kept in OUTDIR
  local lim=$1 lf=$2 rc
  shift 2
  timeout "$lim" "$@" >"$LOGS/$lf" 2>&1
  rc=$?
  echo "  $lf: exit $rc; $(grep -E 'PASSED|FAILED|cases in|SUMMARY|differ|SKIP' "$LOGS/$lf" | tail -2 | tr '\n' ' ')" |
    tee -a "$OUTDIR/summary.txt"
  [ $rc -eq 0 ] || tail -60 "$LOGS/$lf" >"$OUTDIR/fail-$lf"
}
h200_build
CX=$(cd "$B/bin" && ls | grep -E '^test_complex' | tr '\n' ' ')
log "complex tests: $CX"
CS=/usr/local/cuda/bin/compute-sanitizer
for x in $CX; do
  GPUX_BACKEND=cuda GPUX_TEST_BIG=65537 t 400 "memcheck-$x.log" \
    $CS --tool memcheck --error-exitcode 9 "$B/bin/$x" &
done
log "tests"
for be in cuda opencl; do
  for x in $CX test_array test_dlpack test_promote test_kernel_coverage; do
    GPUX_BACKEND=$be t 200 "$x-$be.log" "$B/bin/$x"
  done
done
for x in test_elementwise_xbackend test_reduce_xbackend test_random_xbackend; do
  t 200 "$x.log" "$B/bin/$x"
done
GPUX_BACKEND=cuda GPUX_FUZZ_SECONDS=${FUZZ:-30} t $((${FUZZ:-30} + 40)) fuzz-cuda.log "$B/bin/fuzz_api"
log "bench"
bench() { timeout 120 "$B/bin/gpux-bench" --device gpu --reps 20 --md "$OUTDIR/rows.md" "$@" 2>&1 | grep -E "^  [a-z]|rror|WRONG"; }
bench --backend cuda --op add,copy,sum,cumsum,exp,randn --dtype complex64 --sizes 2^27
bench --backend cuda --op add,sum --dtype complex128 --sizes 2^26
bench --backend cuda --op add,sum --dtype float32 --sizes 2^28
bench --backend cuda --op gemm_c64 --gemm-sizes 8192
bench --backend cuda --op gemm_c128 --gemm-sizes 4096
bench --backend opencl --op add,sum --dtype complex64 --sizes 2^27
bench --backend opencl --op gemm_c64 --gemm-sizes 4096
timeout 120 python3 bench/peers_dtypes.py --md "$OUTDIR/peers.md" --rows \
  complex64:add:2^27,complex64:sum:2^27,complex64:cumsum:2^27,complex128:add:2^26,complex128:sum:2^26 2>&1 | tail -8
[ -f bench/peers_cgemm.py ] && timeout 120 python3 bench/peers_cgemm.py --md "$OUTDIR/peers.md" 2>&1 | tail -6
log "waiting for the sanitizer"
wait
log "done"
