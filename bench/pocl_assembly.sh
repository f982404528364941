#!/bin/sh
# Copies and assembly on pocl against an OpenMP C loop on the same cores (issue 24), runs
# interleaved so that the shared machine's drift hits every column alike:
#   bench/pocl_assembly.sh [build dir (build)] [rounds (5)] [n (2^24)]
# Each round: gpux-omp-bench (copy, add, concat, roll, pad, tile, repeat), gpux-bench's rows
# of the same names and concat1
# (the copy kernel, the default on CPU devices), then copy / concat with GPUX_OPENCL_COPY=buffer
# (clEnqueueCopyBuffer). Prints every row; take the medians over the rounds.
B=${1:-build}
R=${2:-5}
N=${3:-2^24}
export GPUX_BACKEND=opencl POCL_CACHE_DIR=${POCL_CACHE_DIR:-$B/pocl-cache}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
i=1
while [ "$i" -le "$R" ]; do
  echo "== round $i"
  "$B/bin/gpux-omp-bench" "$(python3 -c "print($(echo "$N" | sed 's/\^/**/'))")" 20
  "$B/bin/gpux-bench" --op copy,add,concat,concat1,roll,pad,tile,repeat --sizes "$N" --reps 20 | grep -E '^opencl'
  GPUX_OPENCL_COPY=buffer "$B/bin/gpux-bench" --op copy,concat --sizes "$N" --reps 20 |
    grep -E '^opencl' | sed 's/$/ [copy command]/'
  i=$((i + 1))
done
