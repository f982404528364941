"""PyTorch's and CuPy's elementwise add, sum and cumsum per dtype: the peer figures for
gpux-bench --dtype rows (issue 23: the dtypes past float32).

Run on the GPU machine in the same call as gpux-bench:

    python3 bench/peers_dtypes.py [--rows float16:add:2^29,bfloat16:sum:2^29,...] [--reps 20]
                                  [--md FILE]

Each row is dtype:op:n. add: torch.add(a, b, out=c) / cupy.add(a, b, out=c), bytes = 3 n x
element size; sum: a.sum() (PyTorch accumulates float16 / bfloat16 in float32 and returns the
input dtype, as gpux does), bytes = n x element size read; cumsum: torch.cumsum(a, 0, out=c) /
cupy.cumsum(a, out=c), bytes = 2 n x element size. Timed by CUDA events around the call,
median of --reps after 3 warm-up runs. CuPy has no bfloat16: its rows say so. Appends markdown
rows in gpux-bench's table format to --md.
"""
import argparse
import statistics
import sys


def parse_size(s):
    return 2 ** int(s[2:]) if s.startswith("2^") else int(s)


def timed(fn, reps, sync, event, elapsed):
    for _ in range(3):
        fn()
    sync()
    times = []
    for _ in range(reps):
        e0, e1 = event(), event()
        e0.record()
        fn()
        e1.record()
        e1.synchronize()
        times.append(elapsed(e0, e1))
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", default="float16:add:2^29,bfloat16:add:2^29,bfloat16:sum:2^29")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--md", default=None)
    a = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("peers_dtypes: no torch here", file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print("peers_dtypes: no CUDA device", file=sys.stderr)
        return 77
    try:
        import cupy
    except ImportError:
        cupy = None
    dev = torch.device("cuda")
    out = []
    for spec in a.rows.split(","):
        dtn, op, ns = spec.split(":")
        n = parse_size(ns)
        tdt = getattr(torch, dtn)
        es = torch.tensor([], dtype=tdt).element_size()
        if tdt.is_floating_point:
            x = torch.empty(n, dtype=tdt, device=dev).uniform_(-1, 1)
            y = torch.empty(n, dtype=tdt, device=dev).uniform_(-1, 1)
        else:  # integers: small values (drawn as int64: randint lacks some unsigned dtypes)
            x = torch.randint(0, 100, (n,), device=dev).to(tdt)
            y = torch.randint(0, 100, (n,), device=dev).to(tdt)
        z = torch.empty(n, dtype=tdt, device=dev)
        nbytes = {"add": 3, "sum": 1, "cumsum": 2}[op] * n * es
        fns = {"add": lambda: torch.add(x, y, out=z), "sum": lambda: x.sum(),
               "cumsum": lambda: torch.cumsum(x, 0, out=z)}
        try:
            ms = timed(fns[op], a.reps, torch.cuda.synchronize,
                       lambda: torch.cuda.Event(enable_timing=True),
                       lambda e0, e1: e0.elapsed_time(e1))
            out.append(("pytorch", op, dtn, n, ms, nbytes / ms / 1e6, ""))
        except RuntimeError as e:  # an op PyTorch lacks for the dtype
            out.append(("pytorch", op, dtn, n, 0.0, 0.0, "skipped: " + str(e).split("\n")[0][:80]))
        if cupy is None or dtn == "bfloat16":
            out.append(("cupy", op, dtn, n, 0.0, 0.0, "skipped: CuPy has no " + dtn
                        if cupy else "skipped: no cupy"))
        else:
            cx = cupy.asarray(x)
            cy = cupy.asarray(y)
            cz = cupy.asarray(z)
            cfns = {"add": lambda: cupy.add(cx, cy, out=cz), "sum": lambda: cx.sum(),
                    "cumsum": lambda: cupy.cumsum(cx, out=cz)}
            try:
                ms = timed(cfns[op], a.reps, cupy.cuda.runtime.deviceSynchronize,
                           lambda: cupy.cuda.Event(), cupy.cuda.get_elapsed_time)
                out.append(("cupy", op, dtn, n, ms, nbytes / ms / 1e6 if ms else 0.0, ""))
            except Exception as e:  # noqa: BLE001 -- an op CuPy lacks for the dtype
                out.append(("cupy", op, dtn, n, 0.0, 0.0, "skipped: " + str(e)[:80]))
        del x, y, z
        torch.cuda.empty_cache()
    for r in out:
        print("%-8s %-7s %-9s %12d %10.4f ms %8.1f GB/s %s" % r)
    if a.md:
        with open(a.md, "a") as f:
            for peer, op, dtn, n, ms, gbps, note in out:
                f.write("| %s | %s | %s | %d | %.4f | %.1f | - | - | %s |\n"
                        % (peer, op, dtn, n, ms, gbps, note))
    return 0


if __name__ == "__main__":
    sys.exit(main())
