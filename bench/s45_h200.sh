#!/usr/bin/env bash
# Owed by session 44 (its device time ran out), one call (carry [".devdeps"]; about 330 s
# after the machine's start), the most wanted first:
#   source .devdeps/env.sh && bash bench/s45_h200.sh $OUT/s45
# 1. build; CUDA and NVIDIA OpenCL test_sort and test_group: NVIDIA OpenCL's Onesweep ranking
#    by local ORs (now its default: only gpux-bench's checked rows ran it on a GPU), integer
#    keys' one sort for the sorted keys and their positions (unique, reduce_by_key,
#    sort_by_key with values the passes cannot carry; CUDA's fused last pass writing keys and
#    int64 positions together has not run); memcheck of test_group and test_sort beside them;
# 2. the rows on both backends (rows.md): the sorts, unique with and without the inverse,
#    the top-100 (0.567 ms on an H100 after 6967c0b, 0.712 on session 44's) and ncu of the
#    top-100's kernels (ssel's 4096-key sample: about 16x the candidates of the 2^16 one).
source "$(dirname "$0")/h200_common.sh" s45_h200 "$@"
O=$OUTDIR
OPS=${OPS:-sort_f32,argsort_f32,sort_pairs_i32,sort_i64u,unique_i64,unique_inv_i64,topk100}
CS=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name --format=csv,noheader
H200_CMAKE_ARGS=-DGPUX_WITH_DLPACK=OFF TARGETS="test_sort test_group gpux-bench" h200_build
h200_parallel /tmp/s45-logs 8
log "tests"
{
  for be in cuda opencl; do
    for x in test_sort test_group; do echo "GPUX_BACKEND=$be t 200 $x-$be.log $B/bin/$x"; done
  done
  for x in test_sort test_group; do
    echo "GPUX_BACKEND=cuda GPUX_TEST_BIG=65537 t 250 memcheck-$x.log $CS --tool memcheck --error-exitcode 9 $B/bin/$x"
  done
} | xargs -d '\n' -P "$JOBS" -I{} bash -c '{}'
log "rows"
for be in cuda opencl; do
  timeout 200 "$B/bin/gpux-bench" --backend $be --device gpu --reps 5 --sizes 2^28 \
    --md "$O/rows.md" --op "$OPS" 2>&1 | grep -E "^  [a-z]|rror|WRONG" | sed "s/^/$be /"
done
log "ncu top-100"
timeout 100 /usr/local/cuda/bin/ncu --section SpeedOfLight -k regex:select \
  "$B/bin/gpux-bench" --backend cuda --device gpu --reps 1 --warmup 0 --sizes 2^28 --op topk100 \
  >"$O/ncu-topk100.txt" 2>&1
grep -E "^  gpux_|Duration" "$O/ncu-topk100.txt" | head -40
log "done"
