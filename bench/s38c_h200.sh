#!/usr/bin/env bash
# Session 38's third GPU call: select's scan of the tile counts by a work-group per row (call
# 2's ncu profile of the top-100 of 2^28 on an H100: gpux_select_scan alone 9.44 ms of 13.4).
#     source .devdeps/env.sh && bash bench/s38c_h200.sh [OUTDIR]
source "$(dirname "$0")/h200_common.sh" s38c_h200 "$@"
h200_parallel /tmp/s38c-logs 8
TARGETS=${TARGETS-"test_select test_index_xbackend gpux-bench"} h200_build
log "tests"
{
  for be in cuda opencl; do echo "GPUX_BACKEND=$be t 150 test_select-$be.log $B/bin/test_select"; done
  echo "t 170 test_index_xbackend.log $B/bin/test_index_xbackend"
} | xargs -P "$JOBS" -I{} bash -c '{}'
log "bench"
for be in cuda opencl; do
  timeout 80 "$B/bin/gpux-bench" --backend $be --device gpu --reps 5 --sizes 2^28 --md "$OUTDIR/rows.md" \
    --op topk100,median 2>&1 | grep -E "^  [a-z]|rror|WRONG"
done
timeout 80 python3 bench/peers_select.py --reps 5 --md "$OUTDIR/peers.md" 2>&1 | tail -6
log "done"
