#!/usr/bin/env bash
# Session 44's one call (carry [".devdeps"]), the most wanted first (the device time left
# may end it early):
#   source .devdeps/env.sh && bash bench/s44_h200.sh $OUT/s44
# 1. build; CUDA and NVIDIA OpenCL test_sort (sort.cl's barrier before the warp-vote
#    ranking) and test_group (the mask family's ids kind: unique's and reduce_by_key's
#    inverse from the starts' bits), memcheck of test_group beside them;
# 2. the sort rows on both backends (head-rows.md);
# 3. the ranking's peers by shared ORs (sort.cu GPUX_SK_MATCH_OR=1, sort.cl
#    GPUX_CL_NV_MATCH_OR=1) in place of eight ballots: rebuilt (sed gives the files new
#    times: session 44's base rows showed that copies keeping old times rebuild nothing),
#    the same rows (or-rows.md), test_sort on both backends with racecheck of
#    test_onesweep beside them;
# 4. the top-100 rows and its kernels' times (ncu: 0.567 ms on an H100 after 6967c0b,
#    0.712 on session 44's; ssel's 4096-key sample in between).
source "$(dirname "$0")/h200_common.sh" s44_h200 "$@"
O=$OUTDIR
OPS=${OPS:-sort_f32,sort_pairs_i32,unique_i64,unique_inv_i64}
CS=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
H200_CMAKE_ARGS=-DGPUX_WITH_DLPACK=OFF TARGETS="test_sort test_group gpux-bench" h200_build
rows() { # tag
  for be in cuda opencl; do
    timeout 150 "$B/bin/gpux-bench" --backend $be --device gpu --reps 5 --sizes 2^28 \
      --md "$O/$1-rows.md" --op "$OPS" 2>&1 | grep -E "^  [a-z]|rror|WRONG" | sed "s/^/$1 $be /"
  done
}
tests() { # tag, tests...
  local tag=$1
  shift
  h200_parallel /tmp/s44-logs-$tag 8
  for be in cuda opencl; do
    for x in "$@"; do echo "GPUX_BACKEND=$be t 200 $tag-$x-$be.log $B/bin/$x"; done
  done | xargs -d '\n' -P "$JOBS" -I{} bash -c '{}'
}
log "tests"
GPUX_BACKEND=cuda t 200 memcheck-test_group.log $CS --tool memcheck --error-exitcode 9 \
  "$B/bin/test_group" &
tests head test_sort test_group
wait
log "rows"
rows head
log "shared ORs"
sed -i 's/^#define GPUX_SK_MATCH_OR 0/#define GPUX_SK_MATCH_OR 1/' kernels/cuda/sort.cu &&
  sed -i 's/^#define GPUX_CL_NV_MATCH_OR 0/#define GPUX_CL_NV_MATCH_OR 1/' kernels/cl/sort.cl &&
  grep -c "MATCH_OR 1" kernels/cuda/sort.cu kernels/cl/sort.cl &&
  cmake --build "$B" --target test_sort gpux-bench >"$O/build-or.log" 2>&1 || tail -20 "$O/build-or.log"
rows or
log "tests (shared ORs)"
GPUX_BACKEND=cuda GPUX_TEST_BIG=65537 GPUX_TEST_FILTER=test_onesweep t 150 racecheck-or.log \
  $CS --tool racecheck --error-exitcode 9 "$B/bin/test_sort" &
tests or test_sort
wait
log "top-100"
OPS=topk100 rows topk
timeout 100 /usr/local/cuda/bin/ncu --section SpeedOfLight -k regex:select \
  "$B/bin/gpux-bench" --backend cuda --device gpu --reps 1 --warmup 0 --sizes 2^28 --op topk100 \
  >"$O/ncu-topk100.txt" 2>&1
grep -E "^  gpux_|Duration" "$O/ncu-topk100.txt" | head -40
log "done"
