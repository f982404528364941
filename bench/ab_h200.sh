#!/usr/bin/env bash
# Two builds, one call: the same gpux-bench rows from an earlier commit (A) and from the
# working tree (B), interleaved round by round on the same machine, so that lease-to-lease
# drift does not read as a regression (/work/shared/device/README.md: only figures from one
# call compare). From the repository root on the H200 machine:
#
#     source .devdeps/env.sh && bash bench/ab_h200.sh BASE_COMMIT [OUTDIR]
#
# A is built from `git archive BASE_COMMIT` under $ABDIR, B in $BUILD_DIR (reused when
# configured). Each round runs A then B, then B then A in the next round (ROUNDS rounds);
# each run is a fresh process. Rows: $AB_ARGS (a ';'-separated list of gpux-bench argument
# sets; default: the 2^20 rows and the 1024^3 native half GEMMs that session 26 read lower).
# Writes ab.md (per row: A's and B's median over the rounds of each run's median, B / A) and
# the raw JSON to OUTDIR. Exit status: 0 when every run worked.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BASE=${1:?usage: ab_h200.sh BASE_COMMIT [OUTDIR]}
OUTDIR=${2:-${OUT:-bench/results/ab-$(date +%Y%m%d-%H%M%S)}}
BUILD_DIR=${BUILD_DIR:-build-gpu}
ABDIR=${ABDIR:-/tmp/gpux-ab-base}
ROUNDS=${ROUNDS:-4}
BACKENDS=${BACKENDS:-cuda}
AB_ARGS=${AB_ARGS:-"--op add,add_expr,exp,copy --sizes 2^20 --reps 200;\
--op sum,rowsum,colsum,rowargmax,cumsum --sizes 2^20 --reps 200;\
--op rand,randn --sizes 2^20 --reps 200;\
--op hostcost --calls 10000 --batches 10;\
--op gemm_f16,gemm_bf16,gemm_f32 --gemm-sizes 1024 --gemm-path native,vendor --reps 50 --warmup 5"}
mkdir -p "$OUTDIR" && OUTDIR=$(cd "$OUTDIR" && pwd) || exit 1
log() { printf '[ab %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

build() { # build <source dir> <build dir>
  if [ ! -f "$2/CMakeCache.txt" ]; then
    cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUX_CUDA_ARCHS=90 \
      ${CMAKE_ARGS:-} >"$OUTDIR/configure-$(basename "$2").log" 2>&1 || return 1
  fi
  cmake --build "$2" -j"$(nproc)" --target gpux-bench >"$OUTDIR/build-$(basename "$2").log" 2>&1
}
rm -rf "$ABDIR" && mkdir -p "$ABDIR/src" &&
  git archive "$BASE" | tar -x -C "$ABDIR/src" || { log "cannot extract $BASE"; exit 1; }
log "building A ($BASE) and B (the working tree)"
build "$ABDIR/src" "$ABDIR/build" || { tail -30 "$OUTDIR"/build-build.log; exit 1; }
build . "$BUILD_DIR" || { tail -30 "$OUTDIR/build-$(basename "$BUILD_DIR").log"; exit 1; }
declare -A BIN=([A]="$ABDIR/build/bin/gpux-bench" [B]="$BUILD_DIR/bin/gpux-bench")

failures=0
IFS=';' read -r -a sets <<<"$AB_ARGS"
for r in $(seq 1 "$ROUNDS"); do
  order="A B"
  [ $((r % 2)) -eq 0 ] && order="B A"
  for backend in $BACKENDS; do
    for i in "${!sets[@]}"; do
      for v in $order; do
        # shellcheck disable=SC2086
        GPUX_BACKEND=$backend timeout 300 "${BIN[$v]}" --backend "$backend" --device gpu \
          --json "$OUTDIR/$v-$backend-$i-$r.json" ${sets[$i]} >/dev/null 2>"$OUTDIR/err.txt" ||
          { log "$v $backend set $i round $r failed"; cat "$OUTDIR/err.txt"; failures=$((failures + 1)); }
      done
    done
  done
  log "round $r done"
done
rm -f "$OUTDIR/err.txt"

python3 - "$OUTDIR" "$BASE" "$ROUNDS" <<'EOF' | tee "$OUTDIR/ab.md"
import glob, json, os, statistics, sys
out, base, rounds = sys.argv[1], sys.argv[2], sys.argv[3]
rows = {}
for path in sorted(glob.glob(os.path.join(out, "[AB]-*.json"))):
    v, backend = os.path.basename(path).split("-")[:2]
    for r in json.load(open(path))["results"]:
        if r.get("status") != "ok":
            continue
        key = (backend, r["op"], r.get("dtype", ""), r["n"])
        val = r.get("us_per_call") or r["median_ms"]
        rows.setdefault(key, {"A": [], "B": []})[v].append(val)
print(f"# A/B on one machine, one call: A = {base}, B = the working tree; {rounds} rounds,")
print("alternating order; each figure: the median over rounds of each run's median")
print("(ms, or us/call for host costs). B / A above 1: B is slower.\n")
print("| backend | op | dtype | n | A | B | B / A | A runs | B runs |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for k in sorted(rows):
    a, b = rows[k]["A"], rows[k]["B"]
    if not a or not b:
        continue
    ma, mb = statistics.median(a), statistics.median(b)
    fa = " ".join(f"{x:.4g}" for x in a)
    fb = " ".join(f"{x:.4g}" for x in b)
    print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {ma:.4g} | {mb:.4g} | {mb / ma:.3f} | {fa} | {fb} |")
EOF
exit $((failures > 0))
