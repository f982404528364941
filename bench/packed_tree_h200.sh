#!/usr/bin/env bash
# The one-barrier lane trees of CUDA's packed-lane row reductions (1- and 2-byte inputs), in
# one call of the H200 machine (/work/shared/device/README.md). From the repository root:
#
#     source .devdeps/env.sh && bash bench/packed_tree_h200.sh [OUTDIR]
#
# build-gpu (Release, sm_90); CUDA test_reduce (every kind and dtype against the canonical
# order's bits) and test_reduce_xbackend (CUDA vs NVIDIA OpenCL vs pocl); gpux-bench sums of
# the 1- and 2-byte dtypes at 2^29 / 2^30 (the goal: bfloat16 sum of 2^29 >= 4 TB/s), row
# argmax of 16384 x 16384 (argmin / argmax of 1-byte inputs keep one buffer and a second
# barrier), and PyTorch / CuPy's sums from the same lease (bench/peers_dtypes.py).
source "$(dirname "$0")/h200_common.sh" packed_tree "$@"
h200_build
log "tests"
GPUX_BACKEND=cuda timeout 120 "$B/bin/test_reduce" >"$OUTDIR/reduce-cuda.log" 2>&1
echo "  test_reduce cuda: exit $?; $(grep -E 'PASSED|FAILED' "$OUTDIR/reduce-cuda.log" | tail -2 | tr '\n' ' ')"
timeout 150 "$B/bin/test_reduce_xbackend" >"$OUTDIR/reduce-xbackend.log" 2>&1
echo "  test_reduce_xbackend: exit $?; $(tail -2 "$OUTDIR/reduce-xbackend.log" | tr '\n' ' ')"
log "bench"
bench() { timeout 90 "$B/bin/gpux-bench" --backend cuda --device gpu --reps 20 --md "$OUTDIR/rows.md" "$@" 2>&1 | grep -E "^  [a-z]|rror"; }
for dt in int8 uint8; do bench --op sum --dtype $dt --sizes 2^30; done
for dt in bfloat16 float16 int16 uint16; do bench --op sum --dtype $dt --sizes 2^29; done
for dt in uint8 bfloat16 float32; do bench --op rowargmax --dtype $dt --sizes 2^28; done
timeout 100 python3 bench/peers_dtypes.py --md "$OUTDIR/peers.md" --rows \
  bfloat16:sum:2^29,float16:sum:2^29,int8:sum:2^30 2>&1 | tail -4
log "done"
