"""PyTorch's and CuPy's complex matrix products: the peer figures for gpux-bench --op
gemm_c64,gemm_c128 (issue 23's goal: complex64 GEMM at 8192 within 3% of cuBLAS cgemm on the
vendor path; torch.matmul and cupy.matmul on complex64 / complex128 call cuBLAS cgemm / zgemm).

Run on the GPU machine in the same call as gpux-bench:

    python3 bench/peers_cgemm.py [--sizes 4096,8192] [--dtypes complex64,complex128]
                                 [--reps 20] [--md FILE]

Each row: C = A @ B, n x n x n, into a preallocated C (torch.matmul(a, b, out=c),
cupy.matmul(a, b, out=c)), inputs with both parts uniform in [-1, 1). Timed by CUDA events
around the call, median of --reps after 3 warm-up runs. TFLOP/s = 8 n^3 / median time (a
complex multiply-add is 4 real ones), as gpux-bench counts. Appends markdown rows in
gpux-bench's table format to --md.
"""
import argparse
import sys

from peers_dtypes import timed  # CUDA events around the call, median after 3 warm-ups


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="4096,8192")
    ap.add_argument("--dtypes", default="complex64,complex128")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--md", default=None)
    a = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("peers_cgemm: no torch here", file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print("peers_cgemm: no CUDA device", file=sys.stderr)
        return 77
    try:
        import cupy
    except ImportError:
        cupy = None
    # complex64 products in full float32 (no TF32), as gpux's
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    out = []
    for dtn in a.dtypes.split(","):
        tdt = getattr(torch, dtn)
        rdt = torch.float32 if dtn == "complex64" else torch.float64
        for ns in a.sizes.split(","):
            n = int(ns)
            flop = 8.0 * n * n * n

            def rnd():
                return torch.complex(torch.empty(n, n, dtype=rdt, device=dev).uniform_(-1, 1),
                                     torch.empty(n, n, dtype=rdt, device=dev).uniform_(-1, 1))
            x, y = rnd(), rnd()
            z = torch.empty(n, n, dtype=tdt, device=dev)
            try:
                ms = timed(lambda: torch.matmul(x, y, out=z), a.reps, torch.cuda.synchronize,
                           lambda: torch.cuda.Event(enable_timing=True),
                           lambda e0, e1: e0.elapsed_time(e1))
                out.append(("pytorch", "gemm_" + dtn, n, ms, flop / ms / 1e9, ""))
            except RuntimeError as e:
                out.append(("pytorch", "gemm_" + dtn, n, 0.0, 0.0,
                            "skipped: " + str(e).split("\n")[0][:80]))
            if cupy is None:
                out.append(("cupy", "gemm_" + dtn, n, 0.0, 0.0, "skipped: no cupy"))
            else:
                cx, cy, cz = cupy.asarray(x), cupy.asarray(y), cupy.asarray(z)
                try:
                    ms = timed(lambda: cupy.matmul(cx, cy, out=cz), a.reps,
                               cupy.cuda.runtime.deviceSynchronize, lambda: cupy.cuda.Event(),
                               cupy.cuda.get_elapsed_time)
                    out.append(("cupy", "gemm_" + dtn, n, ms, flop / ms / 1e9 if ms else 0.0, ""))
                except Exception as e:  # noqa: BLE001 -- report, do not stop the other rows
                    out.append(("cupy", "gemm_" + dtn, n, 0.0, 0.0, "skipped: " + str(e)[:80]))
                del cx, cy, cz
            del x, y, z
            torch.cuda.empty_cache()
    for r in out:
        print("%-8s %-16s %6d %10.4f ms %9.2f TFLOP/s %s" % r)
    if a.md:
        with open(a.md, "a") as f:
            for peer, op, n, ms, tf, note in out:
                dtn = op[len("gemm_"):]
                f.write("| %s | %s | %s | %d^3 | %.4f | - | %.4g | - | %s |\n"
                        % (peer, op, dtn, n, ms, tf, note))
    return 0


if __name__ == "__main__":
    sys.exit(main())
