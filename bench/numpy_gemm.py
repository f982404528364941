#!/usr/bin/python3
"""numpy_gemm: the CPU comparison for gpux-bench's gemm ops on pocl (issue 4).

Times numpy's float32 and float64 matmul (C = A @ B, n x n x n, into a preallocated C with
numpy.matmul(out=...)) at the sizes gpux-bench uses on pocl, on the same machine, and prints
the median time and GFLOP/s (2 n^3 / median) of each, plus which BLAS numpy loaded.

    /usr/bin/python3 bench/numpy_gemm.py [--sizes 256,512,1024,2048] [--reps 10] [--json FILE]

Use Debian's /usr/bin/python3 (the numpy there links the system BLAS; /work/shared/POCL.md:
it is the reference BLAS, about 6 GFLOP/s, until libopenblas0-pthread is installed, and
numpy.show_config() does not say which one runs: this script reads /proc/self/maps instead).
Threads: OpenBLAS uses every core unless OPENBLAS_NUM_THREADS / OMP_NUM_THREADS says otherwise
(the script prints the setting)."""
import argparse
import json
import os
import statistics
import sys
import time

try:
    import numpy as np
except ImportError:
    sys.exit("numpy_gemm: numpy is not importable from %s (use /usr/bin/python3)" % sys.executable)


def loaded_blas():
    """The BLAS / LAPACK shared objects mapped into this process."""
    libs = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1] if len(line.split()) >= 6 else ""
                base = os.path.basename(path)
                if any(k in base for k in ("blas", "lapack", "mkl", "blis", "atlas")):
                    libs.add(path)
    except OSError:
        pass
    return sorted(libs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="256,512,1024,2048", help="sides n (comma-separated)")
    ap.add_argument("--reps", type=int, default=10, help="timed runs per size (median)")
    ap.add_argument("--warmup", type=int, default=2, help="untimed runs first")
    ap.add_argument("--json", help="write the results as JSON")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]

    blas = loaded_blas()
    print("numpy %s, python %s" % (np.__version__, sys.version.split()[0]))
    print("BLAS loaded: %s" % (", ".join(blas) if blas else "(none found in /proc/self/maps)"))
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        print("%s=%s" % (var, os.environ.get(var, "(unset)")))
    print("cores: %d" % os.cpu_count())
    print("timing: host perf_counter, median of %d after %d warm-up; GFLOP/s = 2 n^3 / median"
          % (args.reps, args.warmup))
    print()
    print("%-8s %6s %12s %10s" % ("dtype", "n", "median_ms", "GFLOP/s"))

    rng = np.random.default_rng(2024)
    results = []
    for dtype in (np.float32, np.float64):
        for n in sizes:
            a = rng.uniform(-1, 1, (n, n)).astype(dtype)
            b = rng.uniform(-1, 1, (n, n)).astype(dtype)
            c = np.empty((n, n), dtype)
            for _ in range(args.warmup):
                np.matmul(a, b, out=c)
            times = []
            for _ in range(args.reps):
                t0 = time.perf_counter()
                np.matmul(a, b, out=c)
                times.append(time.perf_counter() - t0)
            med = statistics.median(times)
            gflops = 2.0 * n ** 3 / med / 1e9
            # a sample check: one entry against a float64 dot
            i, j = n // 3, n // 2
            want = float(np.dot(a[i, :].astype(np.float64), b[:, j].astype(np.float64)))
            err = abs(float(c[i, j]) - want)
            bound = (n + 4) * np.finfo(dtype).eps / 2 * float(
                np.dot(np.abs(a[i, :].astype(np.float64)), np.abs(b[:, j].astype(np.float64))))
            ok = err <= bound
            name = np.dtype(dtype).name
            print("%-8s %6d %12.4f %10.1f%s" % (name, n, med * 1e3, gflops,
                                                 "" if ok else "  WRONG RESULT"))
            results.append({"dtype": name, "n": n, "median_ms": med * 1e3, "gflops": gflops,
                            "min_ms": min(times) * 1e3, "max_ms": max(times) * 1e3,
                            "reps": args.reps, "check": "ok" if ok else "wrong"})
            sys.stdout.flush()
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"tool": "numpy_gemm", "numpy": np.__version__, "blas": blas,
                       "threads": {v: os.environ.get(v) for v in
                                   ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")},
                       "results": results}, f, indent=2)
    return 0 if all(r["check"] == "ok" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
