#!/usr/bin/env python3
"""Peers of gpux-bench's take / take_seq rows (issue 24, gather): torch.take,
torch.index_select and cupy.take of a 2^28 float32 source by 2^28 int64 indices, pseudo-random
(i * 2654435761 mod n, as gpux-bench) and sequential; and, if cheap, torch's put_ (index_put_
with accumulate=False). GB/s counted as gpux-bench counts them: x + idx + out bytes. Timed with
CUDA events, median of --reps after --warmup. Run in the same device call as gpux-bench."""
import argparse
import statistics


def timed(fn, reps, warmup, sync, event):
    for _ in range(warmup):
        fn()
    sync()
    ts = []
    for _ in range(reps):
        a, b = event(), event()
        a.record()
        fn()
        b.record()
        b.synchronize()
        # torch's events have elapsed_time(); CuPy's are timed by cupy.cuda.get_elapsed_time
        ts.append(a.elapsed_time(b) if hasattr(a, "elapsed_time") else
                  __import__("cupy").cuda.get_elapsed_time(a, b))
    return statistics.median(ts)


def count(s):
    """a count as the peers scripts take it: 2^28, or any Python integer expression"""
    return int(eval(s.replace("^", "**")))


def args(description, reps=10, **counts):
    """The peers scripts' options (parsed): --n (2^28) and the other counts given as
    name=default, --reps, --warmup (3), --md (rows appended to gpux-bench's table)."""
    ap = argparse.ArgumentParser(description=description,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=count, default=2**28)
    for name, default in counts.items():
        ap.add_argument("--" + name, type=count, default=default)
    ap.add_argument("--reps", type=int, default=reps)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--md", default=None, help="append markdown rows (gpux-bench's table)")
    return ap.parse_args()


def main():
    o = args(__doc__, reps=20)
    n = o.n
    moved = n * 4 + n * 8 + n * 4
    rows = []
    try:
        import torch
        x = torch.rand(n, device="cuda", dtype=torch.float32)
        seq = torch.arange(n, device="cuda", dtype=torch.int64)
        rnd = (seq * 2654435761) % n
        ev = lambda: torch.cuda.Event(enable_timing=True)
        for name, idx in (("take", rnd), ("take_seq", seq)):
            ms = timed(lambda: torch.take(x, idx), o.reps, o.warmup, torch.cuda.synchronize, ev)
            rows.append(("torch.take", name, ms))
            ms = timed(lambda: torch.index_select(x, 0, idx), o.reps, o.warmup,
                       torch.cuda.synchronize, ev)
            rows.append(("torch.index_select", name, ms))
        y = torch.empty_like(x)
        ms = timed(lambda: y.put_(rnd, x), o.reps, o.warmup, torch.cuda.synchronize, ev)
        rows.append(("torch.put_", "put", ms))
        del x, seq, rnd, y
        torch.cuda.empty_cache()
    except Exception as e:  # noqa: BLE001 - a missing peer is reported, not fatal
        print(f"torch: {e}")
    try:
        import cupy as cp
        x = cp.random.random(n, dtype=cp.float32)
        seq = cp.arange(n, dtype=cp.int64)
        rnd = (seq * 2654435761) % n
        ev = cp.cuda.Event
        for name, idx in (("take", rnd), ("take_seq", seq)):
            ms = timed(lambda: cp.take(x, idx), o.reps, o.warmup,
                       cp.cuda.Device().synchronize, ev)
            rows.append(("cupy.take", name, ms))
    except Exception as e:  # noqa: BLE001
        print(f"cupy: {e}")
    for peer, op, ms in rows:
        print(f"{peer:20s} {op:9s} n={n} {ms:9.3f} ms {moved / (ms * 1e-3) / 1e9:8.1f} GB/s")
    if o.md and rows:
        with open(o.md, "a") as f:
            for peer, op, ms in rows:
                f.write(f"| {peer} | {op} | float32 | {n} | {ms:.4f} | "
                        f"{moved / (ms * 1e-3) / 1e9:.1f} | - | - |  |\n")


if __name__ == "__main__":
    main()
