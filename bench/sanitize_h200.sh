#!/usr/bin/env bash
# compute-sanitizer over the whole CUDA suite and the examples, on the H200 machine
# (/work/shared/device/README.md). From the repository root, after a build in $BUILD_DIR:
#
#     source .devdeps/env.sh && bash bench/sanitize_h200.sh [OUTDIR]
#
# Runs every test binary and example that CTest registers with the cuda label under
# memcheck (default settings: API errors are reported too, so a failing driver call of
# gpux's own shows), racecheck and initcheck, $JOBS at a time, each with a time limit
# (LIMIT seconds; the tools slow kernels 10 to 100 times). Writes <tool>-<test>.log and
# summary.md (one row per run: the tool's summary line, exit status, time) to OUTDIR.
# Exit status: 0 when no run reported an error (a run cut by its time limit is listed as
# such, not counted as clean). --require-cuda-init no: a test that makes no CUDA call
# (test_registry's fake backend) is a clean run, not a tool error. SKIP (a regex of test
# names; default test_kernel_coverage, which launches no CUDA kernel: it reads the fatbin's
# name list and builds the OpenCL programs, and NVIDIA's OpenCL does not run under the tool)
# leaves tests out, listed as such; ONLY (a regex) runs just the tests it matches.
# GPUX_TEST_BIG (passed on to the tests, e.g. 65537) shrinks the tests' large size (GT_BIG,
# 2^22 + 3) for the racecheck runs, which are 100 times slower and more.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
OUTDIR=${1:-${OUT:-bench/results/sanitize-$(date +%Y%m%d-%H%M%S)}}
BUILD_DIR=${BUILD_DIR:-build-gpu}
JOBS=${JOBS:-12}
LIMIT=${LIMIT:-420}
TOOLS=${TOOLS:-memcheck racecheck initcheck}
CS=${CS:-/usr/local/cuda/bin/compute-sanitizer}
SKIP=${SKIP:-^test_kernel_coverage$}
ONLY=${ONLY:-.} # a regex of the test names to run (e.g. the runs an earlier limit cut)
LOGDIR=${LOGDIR:-$OUTDIR} # the per-run logs (many files): elsewhere when OUTDIR must stay small
mkdir -p "$OUTDIR" "$LOGDIR" && OUTDIR=$(cd "$OUTDIR" && pwd) && LOGDIR=$(cd "$LOGDIR" && pwd)
: >"$OUTDIR/skipped.tsv" # sort below reads it; a missing file empties the whole table

# name<TAB>command of each CUDA test, as CTest registers it
mapfile -t runs < <(ctest --test-dir "$BUILD_DIR" -L cuda --show-only=json-v1 2>/dev/null |
  python3 -c '
import json, sys
for t in json.load(sys.stdin)["tests"]:
    env = [p["value"] for p in t.get("properties", []) if p["name"] == "ENVIRONMENT"]
    env = env[0] if env else []
    print(t["name"] + "\t" + " ".join(env) + "\t" + " ".join(t["command"]))')
[ ${#runs[@]} -gt 0 ] || { echo "no CUDA tests registered in $BUILD_DIR"; exit 1; }

one() { # tool, name, env, command
  local tool=$1 name=$2 env=$3 cmd=$4 log="$LOGDIR/$1-$2.log" t0 rc
  t0=$(date +%s)
  # shellcheck disable=SC2086
  env $env timeout -k 10 "$LIMIT" "$CS" --tool "$tool" --error-exitcode 9 \
    --require-cuda-init no $cmd >"$log" 2>&1
  rc=$?
  printf '%s\t%s\t%s\t%s\t%s\n' "$tool" "$name" "$rc" "$(($(date +%s) - t0))" \
    "$(grep -E '(ERROR|RACECHECK|INITCHECK|LEAK) SUMMARY' "$log" | tail -1)"
}
export -f one
export OUTDIR LOGDIR LIMIT CS

for tool in $TOOLS; do
  for r in "${runs[@]}"; do
    IFS=$'\t' read -r name env cmd <<<"$r"
    [[ $name =~ $ONLY ]] || continue
    if [[ $name =~ $SKIP ]]; then
      printf '%s\t%s\tskipped\t0\tnot run: SKIP=%s\n' "$tool" "$name" "$SKIP" >>"$OUTDIR/skipped.tsv"
      continue
    fi
    printf '%s\0%s\0%s\0%s\0' "$tool" "$name" "$env" "$cmd"
  done
done | xargs -0 -n 4 -P "$JOBS" bash -c 'one "$@"' _ >"$OUTDIR/rows.tsv"

{
  echo "# compute-sanitizer over the CUDA suite ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
  echo
  echo "$("$CS" --version | tail -1); git $(git rev-parse --short HEAD 2>/dev/null)"
  echo "Each CUDA test and example as CTest registers it, default tool settings,"
  echo "--error-exitcode 9, a limit of ${LIMIT} s each (exit 124: cut by the limit)."
  echo
  echo "| tool | test | exit | seconds | summary |"
  echo "| --- | --- | --- | --- | --- |"
  sort "$OUTDIR/rows.tsv" "$OUTDIR/skipped.tsv" 2>/dev/null | awk -F'\t' '{printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}'
} >"$OUTDIR/summary.md"
cat "$OUTDIR/summary.md"
# what each run that found something reported, folded: kinds of error and where
for f in "$LOGDIR"/*.log; do
  grep -qE '(ERROR|RACECHECK|INITCHECK) SUMMARY: [1-9]' "$f" || continue
  echo "== $(basename "$f")"
  grep -E '^========= (Program hit|Invalid|Uninitialized|Race|Error|Warning)' "$f" |
    sed 's/0x[0-9a-f]*/_/g' | sort | uniq -c | sort -rn | head -8
  grep -E 'Host Frame|Device Frame' "$f" | sed 's/\[0x[0-9a-f]*\]//' | sort | uniq -c |
    sort -rn | head -8
done >"$OUTDIR/errors.txt"
# clean: every run exited 0 (9: the tool found errors; 124/137: cut; others: the test failed)
! awk -F'\t' '$3 != 0 {bad = 1} END {exit !bad}' "$OUTDIR/rows.tsv"
