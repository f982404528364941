#!/usr/bin/env bash
# Session 43's changes on a GPU (owed: no machine was lent in session 43). Two calls, with
# carry [".devdeps"], back to back (the second reuses the first's build-gpu while the machine
# is warm, else builds again):
#   source .devdeps/env.sh && bash bench/s43_h200.sh $OUT/call1            (PART=1, about 450 s)
#   source .devdeps/env.sh && PART=2 bash bench/s43_h200.sh $OUT/call2     (about 300 s)
# Before the calls, put the kernels and sources of the commit to compare against in
# bench/s43_base (untracked, so it travels with the tree; the GPU machine's copy has no
# .git):
#   rm -rf bench/s43_base && mkdir bench/s43_base && git archive 36a87b1 kernels src | tar -x -C bench/s43_base
# What they run (part 1: bench/s40_h200.sh quick mode; part 2: the rest):
#   - CUDA and NVIDIA OpenCL test_sort, test_mask, test_select, test_index, test_group (the
#     early counts, the warp votes of NVIDIA's OpenCL ranking, the masks' bits, unique's
#     starts, take's loads); memcheck of test_mask, test_index, test_count, test_group;
#     racecheck of test_onesweep, mask_float32 and test_bincount; test_index_xbackend (CUDA,
#     NVIDIA OpenCL, pocl); the summaries go to bench/results with the rows;
#   - the rows OPS on both backends (take and take_seq: the gathers' loads all in flight),
#     ncu of nonzero's and compress' kernels (flags, scan, compaction);
#   - NVIDIA OpenCL's sorts with the local-memory ranking (GPUX_OPENCL_SORT_WARP=off);
#   - the CUDA sorts with four Onesweep blocks an SM (GPUX_SK_MINB 4, minb4-rows.md);
#   - BASE_OPS rebuilt from bench/s43_base in the same tree (the same machine's before).
# Then, in a third call: test_mask on NVIDIA OpenCL alone with 400 s
# (GPUX_TEST_FILTER=mask_complex128: compile time or a hang in session 42), the peers
# (bench/peers_sort.py, peers_select.py, peers_mask.py).
source "$(dirname "$0")/h200_common.sh" s43_h200 "$@"
O=$OUTDIR
OPS=${OPS:-sort_f32,argsort_f32,sort_pairs_i32,unique_i64,nonzero,compress,take,take_seq,bincount,scatter_add,scatter_add_i32,topk100,median}
BASE_OPS=${BASE_OPS:-sort_f32,argsort_f32,sort_pairs_i32,unique_i64,nonzero,compress,take,take_seq,bincount,scatter_add_i32}
nvidia-smi --query-gpu=name --format=csv,noheader
if [ "${PART:-1}" = 1 ]; then
  H200_CMAKE_ARGS=-DGPUX_WITH_DLPACK=OFF MODE=quick TLIM=${TLIM:-150} \
    TESTS="${TESTS:-test_sort test_mask test_select test_index test_group test_count}" \
    TARGETS="test_select test_sort test_mask test_index test_group test_count test_index_xbackend gpux-bench" MEMCHECK="test_mask test_index test_count test_group" \
    RACECHECK="test_sort:test_onesweep test_mask:mask_float32 test_count:test_bincount" OPS=$OPS UNFUSED_OPS=none \
    NCU_OPS="nonzero compress" bash bench/s40_h200.sh "$O"
  exit 0
fi
# PART=2: the comparisons (an incremental build where part 1's build-gpu is still there)
H200_CMAKE_ARGS=-DGPUX_WITH_DLPACK=OFF TARGETS=gpux-bench h200_build
rows() { # tag backend ops [env...]
  local tag=$1 be=$2 ops=$3
  shift 3
  env "$@" timeout 120 "$B/bin/gpux-bench" --backend "$be" --device gpu --reps 5 --sizes 2^28 \
    --md "$O/$tag-rows.md" --op "$ops" 2>&1 | grep -E "^  [a-z]|rror|WRONG" | sed "s/^/$tag /"
}
log "warp votes off"
rows warpoff opencl sort_f32,argsort_f32,sort_pairs_i32 GPUX_OPENCL_SORT_WARP=off
# four Onesweep blocks an SM (64 registers, 40 bytes spilled in the 32-bit kernel, 4 x 42 KB
# of shared memory) against three (80 registers, no spills): the CUDA sort rows again
log "onesweep, 4 blocks an SM"
cp kernels/cuda/sort.cu /tmp/s43-sort.cu &&
  sed -i 's/#define GPUX_SK_MINB 3/#define GPUX_SK_MINB 4/' kernels/cuda/sort.cu &&
  cmake --build "$B" --target gpux-bench >"$O/build-minb4.log" 2>&1 &&
  rows minb4 cuda sort_f32,argsort_f32,sort_pairs_i32,unique_i64
cp /tmp/s43-sort.cu kernels/cuda/sort.cu
if [ -d bench/s43_base/kernels ]; then
  log "base"
  mkdir -p /tmp/s43-head && cp -a kernels src /tmp/s43-head/ && rm -rf kernels src &&
    cp -a bench/s43_base/kernels bench/s43_base/src . &&
    cmake --build "$B" --target gpux-bench >"$O/build-base.log" 2>&1 &&
    for be in cuda opencl; do rows base $be "$BASE_OPS"; done
  rm -rf kernels src && cp -a /tmp/s43-head/kernels /tmp/s43-head/src .
fi
log "done"
