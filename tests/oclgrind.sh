#!/usr/bin/env bash
# Runs every built-in OpenCL kernel family (test_oclgrind, small sizes) under oclgrind with
# its memory checks (always on), data-race detection and API checks, in the launch shapes
# the OpenCL backend picks for a GPU-type device (oclgrind reports itself as a GPU):
#   gpu4: 4 elements per work-item, the CPU form of reduce/scan and gemm and the global
#         ziggurat table (oclgrind's default 32 KB of local memory is too little for the
#         GPU forms);
#   gpu1: 1 element per work-item, the GPU forms of reduce/scan and gemm, the ziggurat table
#         in local memory (--local-mem-size 131072: oclgrind 21.10 counts the __local arrays
#         of every kernel of a program against each one, 2 x 34880 bytes for random.cl),
#         dynamic chunks for every float32 normal draw, the CPU form of expression kernels.
# The CPU launch shape (exact launches, -DGPUX_EXACT_LAUNCH) needs a CPU-type device, which
# oclgrind is not; pocl runs it in the ordinary suite.
# Not used: --uninitialized, which reports values as uninitialized when one kernel runs
# again on a larger NDRange (oclgrind 21.10; the values are right and checked).
#
# The kernels are built with -DGPUX_CL_NO_STRUCT_RETURN: their form without functions that
# return structs (argmin/argmax pairs, Philox blocks), the same bits; oclgrind 21.10 cannot
# run the inlined struct returns (llvm.experimental.noalias.scope.decl).
# test_scatter runs apart, in both shapes, built with -cl-opt-disable as well: optimized,
# gpux_scatter_fin_f32 / _f64 hold llvm.usub.sat.i32 (LLVM's fold of gpux_sc_round's clamp
# in kernels/common/gpux_scatter.h), which oclgrind 21.10 cannot run (it fails to create the
# kernel); the other runs leave it out (GPUX_OCLGRIND_SCATTER=apart).
# Fails when a run fails, when oclgrind reports anything, or when a planted error (the
# canary: an out-of-bounds write and a race) goes unreported.
# Usage: tests/oclgrind.sh <build dir>   (needs oclgrind on PATH)
set -euo pipefail
BUILD=${1:?usage: tests/oclgrind.sh <build dir>}
BIN=$BUILD/bin/test_oclgrind
OUT=$BUILD/oclgrind
mkdir -p "$OUT"
command -v oclgrind >/dev/null || { echo "oclgrind: not installed"; exit 1; }
[ -x "$BIN" ] || { echo "oclgrind: $BIN not built"; exit 1; }
# every program is compiled by oclgrind itself, not loaded from gpux's on-disk cache
export GPUX_CACHE_DIR=off GPUX_BACKEND=opencl
# float matrix products on gpux's own kernels (auto picks CLBlast on GPU-type devices)
export GPUX_GEMM=native
unset GPUX_DEVICE GPUX_OPENCL_ELEMS_PER_ITEM GPUX_OPENCL_REDUCE GPUX_OPENCL_GEMM GPUX_OPENCL_EW \
  GPUX_OPENCL_ZIG GPUX_RANDOM_ZIG_DYN || true
# GPUX_CL_NO_STRUCT_RETURN: the kernels' form without struct returns, which oclgrind 21.10
# cannot run (kernels/cl/reduce.cl, kernels/common/gpux_random.h); the same bits
CHECKS=(--data-races --check-api --num-threads 1)
NSR=-DGPUX_CL_NO_STRUCT_RETURN
# what oclgrind prints for a kernel error, an API error or an interpreter failure
REPORT='Invalid (read|write)|data race|Oclgrind - OpenCL runtime error|OCLGRIND FATAL|Uninitialized|divergence|Unaligned|Undefined external'

run() { # <name> <build options> <oclgrind options...> -- <env assignments...>
  local name=$1 bopts=$2 opts=() envs=()
  shift 2
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  envs=("$@")
  env "${envs[@]}" oclgrind "${CHECKS[@]}" --build-options "$bopts" "${opts[@]}" \
    --log "$OUT/$name.log" "$BIN" >"$OUT/$name.out" 2>&1
}

check() { # <name> <rc>: 0 when clean
  local name=$1 rc=$2 bad=0
  if [ "$rc" != 0 ]; then echo "oclgrind $name: test_oclgrind failed (exit status $rc)"; bad=1; fi
  if [ -s "$OUT/$name.log" ] || grep -Eq "$REPORT" "$OUT/$name.out"; then
    echo "oclgrind $name: oclgrind reported errors:"
    bad=1
  fi
  if [ $bad = 1 ]; then
    head -c 6000 "$OUT/$name.log" 2>/dev/null || true
    grep -Ev '^\[ +(RUN|OK) +\]' "$OUT/$name.out" | head -60
  else
    grep -E 'cases .* run' "$OUT/$name.out" | sed "s/^/oclgrind $name: /"
  fi
  return $bad
}

T0=$(date +%s)
# the canary must be reported, or the check would be blind
rc=0
run canary "$NSR" -- GPUX_OCLGRIND_CANARY=1 || rc=$?
if ! [ -s "$OUT/canary.log" ] || ! grep -q 'Invalid write' "$OUT/canary.log" ||
  ! grep -q 'data race' "$OUT/canary.log"; then
  echo "oclgrind: the planted out-of-bounds write and race were not reported (exit status $rc):"
  cat "$OUT/canary.out" "$OUT/canary.log" 2>/dev/null | head -40
  exit 1
fi

# the two shapes side by side (one interpreter thread each); then test_scatter apart
GPU1=(GPUX_OPENCL_ELEMS_PER_ITEM=1 GPUX_OPENCL_EW=cpu GPUX_RANDOM_ZIG_DYN=0)
rc1=0 rc2=0 rc3=0 rc4=0
run gpu4 "$NSR" -- GPUX_OCLGRIND_SCATTER=apart & p1=$!
run gpu1 "$NSR" --local-mem-size 131072 -- GPUX_OCLGRIND_SCATTER=apart "${GPU1[@]}" & p2=$!
wait $p1 || rc1=$?
wait $p2 || rc2=$?
run scatter4 "$NSR -cl-opt-disable" -- GPUX_TEST_FILTER=test_scatter & p1=$!
run scatter1 "$NSR -cl-opt-disable" --local-mem-size 131072 -- GPUX_TEST_FILTER=test_scatter \
  "${GPU1[@]}" & p2=$!
wait $p1 || rc3=$?
wait $p2 || rc4=$?
fail=0
check gpu4 $rc1 || fail=1
check gpu1 $rc2 || fail=1
# the filter must have found the case
OKS='^\[ *OK *\] test_scatter'
grep -q "$OKS" "$OUT/scatter4.out" || { echo "oclgrind scatter4: test_scatter did not run"; rc3=1; }
grep -q "$OKS" "$OUT/scatter1.out" || { echo "oclgrind scatter1: test_scatter did not run"; rc4=1; }
check scatter4 $rc3 || fail=1
check scatter1 $rc4 || fail=1
echo "oclgrind: $(($(date +%s) - T0)) s"
exit $fail
