#!/usr/bin/env python3
"""Peers of gpux-bench's topk100 / searchsorted / median rows (issue 25, selection):
torch.topk (k = 100, largest, sorted=False) of 2^28 float32 (GB/s: the input read),
torch.searchsorted and cupy.searchsorted of 2^24 float32 queries in [-2^20, 2^20) into the
sorted 0 .. 2^20 - 1 (GB/s: n (4 + 8) + 2^20 4), torch.median and cupy.median of 2^28 float32
(GB/s: the input read), as gpux-bench counts them. CUDA events, median of --reps after
--warmup; run in the same device call as gpux-bench.

    python3 bench/peers_select.py [--n 2^28] [--nq 2^24] [--reps 10] [--md FILE]
"""
from peers_index import args, timed  # warm-up runs, then the median of CUDA event times

SORTED = 1 << 20


def main():
    o = args(__doc__, nq=2**24)
    n, nq = o.n, o.nq
    rows = []  # (peer, op, dtype, n, ms, bytes)
    ss_bytes = nq * (4 + 8) + SORTED * 4.0
    try:
        import torch
        ev = lambda: torch.cuda.Event(enable_timing=True)  # noqa: E731
        sync = torch.cuda.synchronize
        x = torch.rand(n, device="cuda") * 8 - 4
        ms = timed(lambda: torch.topk(x, 100, sorted=False), o.reps, o.warmup, sync, ev)
        rows.append(("torch.topk", "topk100", "float32", n, ms, 4.0 * n))
        ms = timed(lambda: torch.median(x), o.reps, o.warmup, sync, ev)
        rows.append(("torch.median", "median", "float32", n, ms, 4.0 * n))
        del x
        s = torch.arange(SORTED, device="cuda", dtype=torch.float32)
        q = (torch.rand(nq, device="cuda") * 2 - 1) * SORTED
        ms = timed(lambda: torch.searchsorted(s, q), o.reps, o.warmup, sync, ev)
        rows.append(("torch.searchsorted", "searchsorted", "float32", nq, ms, ss_bytes))
        del s, q
        torch.cuda.empty_cache()
    except Exception as e:  # noqa: BLE001 - a missing peer is reported, not fatal
        print(f"torch: {e}")
    try:
        import cupy as cp
        csync = cp.cuda.Device().synchronize
        x = cp.random.random(n, dtype=cp.float32) * 8 - 4
        ms = timed(lambda: cp.median(x), o.reps, o.warmup, csync, cp.cuda.Event)
        rows.append(("cupy.median", "median", "float32", n, ms, 4.0 * n))
        del x
        s = cp.arange(SORTED, dtype=cp.float32)
        q = (cp.random.random(nq, dtype=cp.float32) * 2 - 1) * SORTED
        ms = timed(lambda: cp.searchsorted(s, q), o.reps, o.warmup, csync, cp.cuda.Event)
        rows.append(("cupy.searchsorted", "searchsorted", "float32", nq, ms, ss_bytes))
    except Exception as e:  # noqa: BLE001
        print(f"cupy: {e}")
    for peer, op, dt, m, ms, b in rows:
        print(f"{peer:18s} {op:14s} {dt:8s} n={m} {ms:9.3f} ms {b / (ms * 1e-3) / 1e9:8.1f} GB/s")
    if o.md and rows:
        with open(o.md, "a") as f:
            for peer, op, dt, m, ms, b in rows:
                f.write(f"| {peer} | {op} | {dt} | {m} | {ms:.4f} | {b / (ms * 1e-3) / 1e9:.1f} "
                        "| - | - |  |\n")


if __name__ == "__main__":
    main()
