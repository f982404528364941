#!/usr/bin/env bash
# The H200 run of issue 23's integer dtypes (int8, int16, uint16, uint32, uint64), in one
# device call (see /work/shared/device/README.md). From the repository root there:
#
#     source .devdeps/env.sh && bash bench/dtypes_h200.sh [OUTDIR]
#
# 1. builds build-gpu (Release, sm_90) and runs the CUDA suite (ctest -L cuda, without the
#    cross-backend, coverage and oclgrind tests), then on NVIDIA's OpenCL the tests the dtypes
#    touch, and the four cross-backend tests (CUDA vs NVIDIA OpenCL vs pocl, bits compared);
# 2. gpux-bench add / sum / cumsum rows per integer dtype on CUDA (2^30 int8, 2^29 others,
#    2^28 for 8-byte ones) and a few on NVIDIA's OpenCL, and PyTorch's / CuPy's same rows
#    (bench/peers_dtypes.py) in the same call;
# 3. gpux-first-use int8 in three fresh processes (context creation and each family's first
#    call);
# 4. the auto fallback: a second build whose fatbins hold sm_100 code only (none the H200
#    can run): GPUX_BACKEND=auto must pick OpenCL, GPUX_BACKEND=cuda must fail clearly.
# Logs go to OUTDIR (default $OUT). TESTS=0 leaves part 1's tests out (a call of 600 s holds
# the build and either the tests or the rest, not both); FUZZ=<seconds> adds a fuzz_api run
# on CUDA after the benchmarks.
source "$(dirname "$0")/h200_common.sh" dtypes_h200 "$@"

h200_build

if [ "${TESTS:-1}" != 0 ]; then
log "tests: CUDA"
ctest --test-dir "$B" -L cuda -E "xbackend|coverage|oclgrind" -j3 --timeout 400 \
  >"$OUTDIR/ctest-cuda.log" 2>&1
grep -E "tests passed|FAILED|Failed|Timeout" "$OUTDIR/ctest-cuda.log" | head -20
log "tests: NVIDIA OpenCL and cross-backend"
ctest --test-dir "$B" -R \
  "^test_(elementwise|reduce|scan|array|half|random|ewkernel|promote|kernel)\.opencl$|xbackend" \
  -j2 --timeout 400 >"$OUTDIR/ctest-opencl.log" 2>&1
grep -E "tests passed|FAILED|Failed|Timeout" "$OUTDIR/ctest-opencl.log" | head -20
fi

log "bench"
bench() { "$B/bin/gpux-bench" --device gpu --reps 20 --md "$OUTDIR/rows.md" "$@" 2>&1 | grep -E "^  [a-z]"; }
bench --backend cuda --op add,copy,sum,cumsum --dtype int8 --sizes 2^30
for dt in int16 uint16 uint32; do bench --backend cuda --op add,sum,cumsum --dtype $dt --sizes 2^29; done
bench --backend cuda --op add,sum,cumsum --dtype uint64 --sizes 2^28
bench --backend cuda --op add,sum --dtype uint8 --sizes 2^30
bench --backend opencl --op add,sum --dtype int8 --sizes 2^28
bench --backend opencl --op add,sum --dtype uint64 --sizes 2^26
python3 bench/peers_dtypes.py --md "$OUTDIR/peers.md" --rows \
  int8:add:2^30,int8:sum:2^30,int8:cumsum:2^30,uint8:add:2^30,uint8:sum:2^30,int16:add:2^29,int16:sum:2^29,uint16:add:2^29,uint16:sum:2^29,uint32:add:2^29,uint32:sum:2^29,uint64:add:2^28,uint64:sum:2^28,uint64:cumsum:2^28 \
  2>&1 | tail -30

log "first use"
for k in 1 2 3; do GPUX_BACKEND=cuda "$B/bin/gpux-first-use" int8; done >"$OUTDIR/first-use-int8.txt" 2>&1
cat "$OUTDIR/first-use-int8.txt"

if [ "${FUZZ:-0}" != 0 ]; then
  log "fuzz_api on CUDA, ${FUZZ} s"
  GPUX_BACKEND=cuda GPUX_FUZZ_SECONDS=$FUZZ "$B/bin/fuzz_api" >"$OUTDIR/fuzz-cuda.log" 2>&1
  echo "fuzz_api exit $?"; tail -3 "$OUTDIR/fuzz-cuda.log"
fi

log "auto fallback (fatbins for sm_100 only)"
cmake -S . -B build-probe -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUX_CUDA_ARCHS=100 \
  >"$OUTDIR/probe.log" 2>&1 &&
  cmake --build build-probe -j"$(nproc)" --target matrix_add gpux-cuda gpux-opencl >>"$OUTDIR/probe.log" 2>&1 ||
  tail -20 "$OUTDIR/probe.log"
GPUX_BACKEND=auto build-probe/bin/matrix_add 2>&1 | head -2
GPUX_BACKEND=cuda build-probe/bin/matrix_add 2>&1 | head -3
log "done"
