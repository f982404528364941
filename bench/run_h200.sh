#!/usr/bin/env bash
# The benchmark run for the H200 machine (see /work/shared/device/README.md). From the
# repository root, on that machine:
#
#     source .devdeps/env.sh && bash bench/run_h200.sh [OUTDIR]
#
# OUTDIR defaults to $OUT (the device run's output folder), else bench/results/run-<date>.
# Builds gpux-info and gpux-bench in $BUILD_DIR (default build-gpu; an existing configuration
# there is reused as it is, else Release with GPUX_CUDA_ARCHS=90), then, for the CUDA and the
# OpenCL backend on the GPU (the NVIDIA OpenCL platform, not pocl):
#   add, add_expr (the same add as an elementwise expression kernel), exp and copy at 2^20,
#   2^24, 2^28 float32 elements; a 16384 x 16384 float32 transpose; the host cost of one
#   small queued op; reductions (issue 3): full sum, row sums, column sums, row argmax
#   (side x side) and cumsum at the same sizes, and the host cost of a scalar sum of 1000
#   elements; matrix products (issue 4): gemm_f32, gemm_f64, gemm_tf32,
#   gemm_f16, gemm_bf16 at n = 1024, 4096, 8192 on the vendor path (cuBLAS / CLBlast) and the
#   native path (gpux's kernels), TFLOP/s and the first (cold) call of each path; tf32, f16
#   and bf16 are CUDA only (the OpenCL rows say "skipped"); random numbers (issue 5): uniform
#   and normal draws (rand, randn) of float32 at the same sizes and of float64 at 2^20, 2^24,
#   2^27, bytes written per second; user kernels (issue 6, gpux-kernel-bench): the first launch
#   of a dialect kernel in a fresh process (program + kernel + launch + synchronize, and the
#   context creation before it) with an empty GPUX_CACHE_DIR (cold) and then the same one
#   (warm), and the host cost of launching a built 4-argument kernel.
# Host <-> device copies (issue 22): gpux-bench's transfer ops (pinned and pageable, both
# directions) at XFER_SIZES float32 elements, and PyTorch's copy_ at the same sizes in the same
# call (bench/peers_transfer.py); the two-stream upload / compute pipeline (overlap).
# Writes gpux-info.txt, <backend>-<part>.json, <backend>-<part>.log, rows.md and summary.md
# (the table plus the performance targets, ready to become bench/results/h200.md).
# Exit status: 0 when every run worked (a target missed is reported, not an error).
set -uo pipefail

cd "$(dirname "$0")/.." || exit 1
OUTDIR=${1:-${OUT:-bench/results/run-$(date +%Y%m%d-%H%M%S)}}
BUILD_DIR=${BUILD_DIR:-build-gpu}
REPS=${REPS:-50}
# for a trial run elsewhere (e.g. on pocl): DEVICE=0 SIZES=2^16,2^20 TSIZE=1024x1024 CALLS=1000
#   GEMM_SIZES=256,512,1024,2048 GEMM_REPS=5
DEVICE=${DEVICE:-gpu}
SIZES=${SIZES:-2^20,2^24,2^28}
TSIZE=${TSIZE:-16384x16384}
CALLS=${CALLS:-10000}
SIZES64=${SIZES64:-2^20,2^24,2^27}
GEMM_SIZES=${GEMM_SIZES:-1024,4096,8192}
GEMM_REPS=${GEMM_REPS:-20}
GEMM_OPS=${GEMM_OPS:-gemm_f32,gemm_f64,gemm_tf32,gemm_f16,gemm_bf16}
XFER_SIZES=${XFER_SIZES:-2^18,2^24,2^28}
mkdir -p "$OUTDIR" || exit 1
OUTDIR=$(cd "$OUTDIR" && pwd)
log() { printf '[run_h200 %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

# --- build
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  gen=()
  command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
  log "configuring $BUILD_DIR"
  cmake -S . -B "$BUILD_DIR" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DGPUX_CUDA_ARCHS=90 \
    ${CMAKE_ARGS:-} >"$OUTDIR/configure.log" 2>&1 || { tail -50 "$OUTDIR/configure.log"; exit 1; }
fi
log "building gpux-info, gpux-bench and gpux-kernel-bench"
cmake --build "$BUILD_DIR" -j"$(nproc)" --target gpux-info gpux-bench gpux-kernel-bench \
  >"$OUTDIR/build.log" 2>&1 || { tail -50 "$OUTDIR/build.log"; exit 1; }
INFO="$BUILD_DIR/bin/gpux-info"
BENCH="$BUILD_DIR/bin/gpux-bench"
KBENCH="$BUILD_DIR/bin/gpux-kernel-bench"
# the bare-launch floor exists only in builds with the CUDA backend
cmake --build "$BUILD_DIR" --target gpux-launch-floor >>"$OUTDIR/build.log" 2>&1 || true
FLOOR="$BUILD_DIR/bin/gpux-launch-floor"

# --- the machine
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "git: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
} >"$OUTDIR/machine.txt" 2>&1
log "gpux-info"
"$INFO" >"$OUTDIR/gpux-info.txt" 2>&1
echo "gpux-info exit status: $?" >>"$OUTDIR/gpux-info.txt"
cat "$OUTDIR/gpux-info.txt"

# --- the runs
rm -f "$OUTDIR/rows.md"
failures=0
# run_part <backend> <part> <log> <command...>: the command with GPUX_BACKEND=<backend>, at most
# 600 s, its output into <log> and then onto stdout; exit status 77 is a skip, another failure
# is counted in failures
run_part() {
  local backend=$1 part=$2 out=$3
  shift 3
  GPUX_BACKEND=$backend timeout 600 "$@" >"$out" 2>&1
  local rc=$?
  cat "$out"
  if [ $rc -eq 77 ]; then
    log "$backend $part: backend unavailable (skipped)"
  elif [ $rc -ne 0 ]; then
    log "$backend $part: FAILED with exit status $rc"
    failures=$((failures + 1))
  fi
}
bench() { # bench <backend> <part> <gpux-bench args...> (a later --reps overrides REPS)
  local backend=$1 part=$2
  shift 2
  log "$backend $part: gpux-bench $*"
  run_part "$backend" "$part" "$OUTDIR/$backend-$part.log" "$BENCH" --backend "$backend" \
    --device "$DEVICE" --reps "$REPS" --json "$OUTDIR/$backend-$part.json" --md "$OUTDIR/rows.md" "$@"
}
for backend in cuda opencl; do
  bench "$backend" elementwise --op add,add_expr,exp,copy --sizes "$SIZES"
  bench "$backend" transpose --op transpose --sizes "$TSIZE"
  # assembly (issue 24): concatenate of two arrays (goal >= 4.0 TB/s at 2^28), and the others
  bench "$backend" assembly --op concat,concat1,roll,pad,tile,repeat --sizes "$SIZES"
  bench "$backend" hostcost --op hostcost --calls "$CALLS" --batches 10
  bench "$backend" reduce --op sum,rowsum,colsum,rowargmax,cumsum --sizes "$SIZES"
  bench "$backend" sumscalar --op sumscalar --calls "$CALLS" --batches 10
  bench "$backend" random --op rand,randn --sizes "$SIZES"
  bench "$backend" random64 --op rand,randn --dtype float64 --sizes "$SIZES64"
  # matrix products, both paths: each path's first size also gives its cold first call
  bench "$backend" gemm --op "$GEMM_OPS" --gemm-sizes "$GEMM_SIZES" --gemm-path vendor,native \
    --reps "$GEMM_REPS" --warmup 3
  # host <-> device copies (issue 22): 1 MiB, 64 MiB, 1 GiB of float32, pinned and pageable
  bench "$backend" transfer --op transfer --sizes "$XFER_SIZES" --reps 20 --warmup 3
  # uploads overlapped with computing on a second stream (issue 22): 1 GiB in 16 chunks
  bench "$backend" overlap --op overlap --sizes 2^28 --reps 10 --warmup 2
done
# PyTorch's copies in the same call (the peer figures of the transfer rows)
if command -v python3 >/dev/null 2>&1; then
  log "PyTorch copies: bench/peers_transfer.py"
  python3 bench/peers_transfer.py --sizes "$XFER_SIZES" --md "$OUTDIR/rows.md" \
    >"$OUTDIR/peers-transfer.log" 2>&1 || log "peers_transfer.py: exit $? (see its log)"
  cat "$OUTDIR/peers-transfer.log"
fi

# --- user kernels (issue 6). First launch in a fresh process: each run is its own process;
# the cold run gets an empty GPUX_CACHE_DIR, the warm run the same directory afterwards, and
# both build one source whose marker no earlier run used (so no cache, gpux's or a driver's,
# has seen it before the cold run). Then the host cost of launching a built kernel.
kbench() { # kbench <backend> <part> <gpux-kernel-bench args...>
  local backend=$1 part=$2
  shift 2
  log "$backend $part: gpux-kernel-bench $*"
  run_part "$backend" "$part" "$OUTDIR/$backend-kernel-$part.log" "$KBENCH" --backend "$backend" \
    --device "$DEVICE" --json "$OUTDIR/$backend-kernel.jsonl" --md "$OUTDIR/rows.md" "$@"
}
for backend in cuda opencl; do
  kcache=$(mktemp -d "${TMPDIR:-/tmp}/gpux-kcache-$backend.XXXXXX") || exit 1
  marker="run_h200 $backend $(date +%s%N) $$"
  GPUX_CACHE_DIR=$kcache kbench "$backend" first-launch-cold --mode first-launch --label cold \
    --marker "$marker"
  GPUX_CACHE_DIR=$kcache kbench "$backend" first-launch-warm --mode first-launch --label warm \
    --marker "$marker"
  ls -l "$kcache" >>"$OUTDIR/$backend-kernel-first-launch-warm.log" 2>&1
  rm -rf "$kcache"
  kbench "$backend" launch --mode launch --calls "$CALLS" --batches 10
done

# the floor under the CUDA host cost: a bare cuLaunchKernel, measured the same way
if [ -x "$FLOOR" ]; then
  log "gpux-launch-floor"
  "$FLOOR" "$((CALLS / 10))" >"$OUTDIR/launch-floor.txt" 2>&1
  cat "$OUTDIR/launch-floor.txt"
fi

# --- summary: the table, then the targets of the brief
[ -f "$OUTDIR/rows.md" ] || : >"$OUTDIR/rows.md"
awk -F'|' '
  function trim(s) { gsub(/^ +| +$/, "", s); return s }
  NR > 2 {
    b = trim($2); op = trim($4); dt = trim($5); n = trim($6); gbps = trim($8); tf = trim($9)
    us = trim($10)
    if (n == "2^28" && gbps != "" && dt == "float32") bw[b "," op] = gbps + 0
    if (n == "8192^3" && tf != "") tflops[b "," op] = tf + 0
    if (op == "hostcost_into" && us != "") hc[b] = us + 0
    if (op == "sumscalar" && us != "") ss[b] = us + 0
    ms = trim($7)
    if (op == "kernel_launch" && us != "") kl[b] = us + 0
    if (op == "first_launch_cold" || op == "first_launch_warm" || op == "context_create_cold" ||
        op == "context_create_warm") fl[b "," op] = ms + 0
  }
  function row(what, val, unit, ok, goal) { # ok: 1 met, 0 missed, -1 no target
    printf("| %s | %s | %s | %s |\n", what, val == "" ? "not measured" : val " " unit, goal,
           val == "" || ok < 0 ? "-" : (ok ? "met" : "MISSED"))
  }
  function bwrow(what, key, goal) {
    v = (key in bw) ? sprintf("%.0f", bw[key]) : ""
    row(what, v, "GB/s", (key in bw) && bw[key] >= goal, ">= " goal " GB/s")
  }
  function relrow(op, frac,   c, o, v) { # (tests with "in" first: reading bw[k] would create k)
    v = ""
    if ((("cuda," op) in bw) && (("opencl," op) in bw) && bw["cuda," op] > 0) {
      c = bw["cuda," op]; o = bw["opencl," op]
      v = sprintf("%.0f (%.0f%% of CUDA)", o, 100 * o / c)
    }
    row("opencl " op " 2^28 float32 vs CUDA", v, "GB/s", v != "" && o >= frac * c,
        ">= " 100 * frac "% of CUDA")
  }
  END {
    print "| target | measured | goal | result |"
    print "| --- | ---: | --- | --- |"
    bwrow("cuda add 2^28 float32", "cuda,add", 4000)
    bwrow("cuda exp 2^28 float32", "cuda,exp", 4000)
    relrow("add", 0.9); relrow("exp", 0.9)
    bwrow("cuda transpose 16384^2 float32", "cuda,transpose", 3000)
    bwrow("opencl transpose 16384^2 float32", "opencl,transpose", 3000)
    v = ("cuda" in hc) ? sprintf("%.2f", hc["cuda"]) : ""
    row("cuda host cost of a small queued op", v, "us", ("cuda" in hc) && hc["cuda"] <= 4.0, "<= 4 us")
    v = ("opencl" in hc) ? sprintf("%.2f", hc["opencl"]) : ""
    row("opencl host cost of a small queued op", v, "us", -1, "(no target)")
    bwrow("cuda sum 2^28 float32", "cuda,sum", 4000)
    bwrow("cuda rowsum 16384^2 float32", "cuda,rowsum", 4000)
    bwrow("cuda colsum 16384^2 float32", "cuda,colsum", 4000)
    relrow("sum", 0.85); relrow("rowsum", 0.85); relrow("colsum", 0.85)
    bwrow("cuda rowargmax 16384^2 float32", "cuda,rowargmax", 3500)
    bwrow("cuda cumsum 2^28 float32 (read + write)", "cuda,cumsum", 3000)
    v = ("cuda" in ss) ? sprintf("%.2f", ss["cuda"]) : ""
    row("cuda scalar sum of 1000 float32 to the host", v, "us", ("cuda" in ss) && ss["cuda"] <= 12.0, "<= 12 us")
    v = ("opencl" in ss) ? sprintf("%.2f", ss["opencl"]) : ""
    row("opencl scalar sum of 1000 float32 to the host", v, "us", -1, "(no target)")
    # random numbers (issue 5): bytes written; CuPy Generator 2.98 / 2.26, PyTorch 2.51 / 1.75
    bwrow("cuda rand (uniform) 2^28 float32", "cuda,rand", 3500)
    bwrow("cuda randn (normal) 2^28 float32", "cuda,randn", 3000)
    relrow("rand", 0.85); relrow("randn", 0.85)
    # GEMM at 8192^3 (issue 4). The goals are fractions of cuBLAS called directly (the standalone
    # baseline of issue 4): SGEMM 50.6, DGEMM 56, TF32 380, f16/bf16 700 TFLOP/s; CLBlast
    # standalone reached 33.4 on the NVIDIA OpenCL platform.
    tfrow("cuda gemm_f32 vendor 8192^3", "cuda,gemm_f32_vendor", 0.97 * 50.6)
    tfrow("cuda gemm_f64 vendor 8192^3", "cuda,gemm_f64_vendor", 0.97 * 56)
    tfrow("cuda gemm_tf32 vendor 8192^3", "cuda,gemm_tf32_vendor", 0.95 * 380)
    tfrow("cuda gemm_f16 vendor 8192^3", "cuda,gemm_f16_vendor", 0.95 * 700)
    tfrow("cuda gemm_bf16 vendor 8192^3", "cuda,gemm_bf16_vendor", 0.95 * 700)
    tfrow("cuda gemm_f32 native 8192^3", "cuda,gemm_f32_native", 0.6 * 50.6)
    tfrow("opencl gemm_f32 vendor (CLBlast) 8192^3", "opencl,gemm_f32_vendor", -1)
    v = ""
    if (("opencl,gemm_f32_native" in tflops) && ("opencl,gemm_f32_vendor" in tflops)) {
      o = tflops["opencl,gemm_f32_native"]; c = tflops["opencl,gemm_f32_vendor"]
      v = sprintf("%.1f (CLBlast %.1f)", o, c)
    }
    row("opencl gemm_f32 native 8192^3 vs CLBlast", v, "TFLOP/s", v != "" && o > c, "> CLBlast")
    tfrow("opencl gemm_f64 vendor (CLBlast) 8192^3", "opencl,gemm_f64_vendor", -1)
    tfrow("opencl gemm_f64 native 8192^3", "opencl,gemm_f64_native", -1)
    # user kernels (issue 6): first launch = program + kernel + launch + synchronize in a fresh
    # process; "with context" adds gpux_context_create, comparable to the first CuPy RawKernel
    # launch in a fresh process (386 ms cold / 199 ms warm cache, incl. context)
    for (k = 0; k < 2; k++) {
      b = k ? "opencl" : "cuda"
      flrow(b " first launch, warm cache", b ",first_launch_warm", 5)
      flrow(b " first launch, cold cache", b ",first_launch_cold", -1)
      v = ""
      if (((b ",first_launch_warm") in fl) && ((b ",context_create_warm") in fl))
        v = sprintf("%.1f", fl[b ",first_launch_warm"] + fl[b ",context_create_warm"])
      row(b " first launch incl. context, warm cache", v, "ms", -1, "(CuPy 199 ms)")
      v = ""
      if (((b ",first_launch_cold") in fl) && ((b ",context_create_cold") in fl))
        v = sprintf("%.1f", fl[b ",first_launch_cold"] + fl[b ",context_create_cold"])
      row(b " first launch incl. context, cold cache", v, "ms", -1, "(CuPy 386 ms)")
    }
    v = ("cuda" in kl) ? sprintf("%.2f", kl["cuda"]) : ""
    row("cuda host cost of a 4-argument kernel launch", v, "us", ("cuda" in kl) && kl["cuda"] <= 4.0,
        "<= 4 us (CuPy RawKernel 8.6 us)")
    v = ("opencl" in kl) ? sprintf("%.2f", kl["opencl"]) : ""
    row("opencl host cost of a 4-argument kernel launch", v, "us", -1, "(no target)")
  }
  function flrow(what, key, goal,   v) {
    v = (key in fl) ? sprintf("%.2f", fl[key]) : ""
    row(what, v, "ms", goal < 0 ? -1 : ((key in fl) && fl[key] < goal),
        goal < 0 ? "(record)" : sprintf("< %g ms", goal))
  }
  function tfrow(what, key, goal,   v) {
    v = (key in tflops) ? sprintf("%.1f", tflops[key]) : ""
    row(what, v, "TFLOP/s", goal < 0 ? -1 : ((key in tflops) && tflops[key] >= goal),
        goal < 0 ? "(record)" : sprintf(">= %.1f TFLOP/s", goal))
  }' "$OUTDIR/rows.md" >"$OUTDIR/targets.md"

{
  echo "# gpux-bench on the H200 machine"
  echo
  echo '```'
  cat "$OUTDIR/machine.txt"
  grep -E '^(gpux |Default|  Picks)' "$OUTDIR/gpux-info.txt"
  echo '```'
  echo
  echo "Produced by \`bench/run_h200.sh\`: device-event timing, median of $REPS runs after warm-up;"
  echo "GB/s = (bytes read + bytes written) / median time. hostcost: host monotonic clock,"
  echo "median over 10 batches of us/call for 1000-element float32 adds queued back to back."
  echo "Sizes: $SIZES elements (add, exp, copy), transpose $TSIZE; device: $DEVICE."
  echo "Transpose times include gpux_array_transpose's output allocation, served by the warm pool."
  echo "GEMM: n x n x n products at n = $GEMM_SIZES, gpux_gemm into a preallocated C, median of"
  echo "$GEMM_REPS after 3 warm-up calls; TFLOP/s = 2 n^3 / median; the note gives the first call at"
  echo "each size on the host clock (the first size: the cold call, building or loading the kernels)."
  echo "User kernels (gpux-kernel-bench): first_launch_* = gpux_program_create + gpux_kernel_create +"
  echo "one launch + synchronize of a dialect kernel in a fresh process (host clock), with an empty"
  echo "GPUX_CACHE_DIR (cold) and then the same one (warm); context_create_* = the gpux_context_create"
  echo "before it; kernel_launch / kernel_call = host us per launch of a built 4-argument kernel"
  echo "(median of 10 batches); kernel_launch_sync = launch + synchronize (latency)."
  echo
  echo "## Results"
  echo
  cat "$OUTDIR/rows.md"
  echo
  echo "## Targets"
  echo
  cat "$OUTDIR/targets.md"
  if [ -s "$OUTDIR/launch-floor.txt" ]; then
    echo
    echo "Floor under the CUDA host cost (gpux-launch-floor): $(cat "$OUTDIR/launch-floor.txt")"
  fi
  if [ $failures -ne 0 ]; then
    echo
    echo "**$failures run(s) failed**: see the .log files."
  fi
} >"$OUTDIR/summary.md"
log "summary: $OUTDIR/summary.md"
cat "$OUTDIR/summary.md"
[ $failures -eq 0 ]
