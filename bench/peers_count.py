#!/usr/bin/env python3
"""Peers of gpux-bench's bincount / scatter_add / scatter_add_i32 rows (issue 24, counting):
torch.bincount and cupy.bincount of 2^28 int64 values i * 2654435761 mod 1024 (minlength 1024;
GB/s: the 8 n bytes read), and torch's index_add_ (atomic, not deterministic) of 2^28 float32
/ int32 values into 2^20 targets at int64 indices i * 2654435761 mod 2^20 (GB/s: n (4 + 8) +
2^20 4 2), as gpux-bench counts them; torch.unique / cupy.unique (sorted) of 2^28 int64
values i * 2654435761 mod 1000 (issue 25's unique row; GB/s: the 8 n bytes read). CUDA events, median of --reps after --warmup; run in
the same device call as gpux-bench.

    python3 bench/peers_count.py [--n 2^28] [--reps 10] [--md FILE]
"""
from peers_index import args, timed  # warm-up runs, then the median of CUDA event times

HASH = 2654435761
TARGETS = 1 << 20
BINS = 1024
UNIQUE = 1000


def main():
    o = args(__doc__)
    n = o.n
    rows = []  # (peer, op, dtype, ms, bytes)
    try:
        import torch
        ev = lambda: torch.cuda.Event(enable_timing=True)  # noqa: E731
        sync = torch.cuda.synchronize
        seq = torch.arange(n, device="cuda", dtype=torch.int64)
        x = (seq * HASH) % BINS
        ms = timed(lambda: torch.bincount(x, minlength=BINS), o.reps, o.warmup, sync, ev)
        rows.append(("torch.bincount", "bincount", "int64", ms, 8.0 * n))
        u = (seq * HASH) % UNIQUE  # issue 25's unique row: 1000 distinct int64 values
        ms = timed(lambda: torch.unique(u, sorted=True), o.reps, o.warmup, sync, ev)
        rows.append(("torch.unique", "unique_i64", "int64", ms, 8.0 * n))
        del x, u
        idx = (seq * HASH) % TARGETS
        del seq
        for dt, name in ((torch.float32, "scatter_add"), (torch.int32, "scatter_add_i32")):
            v = (torch.rand(n, device="cuda") if dt == torch.float32
                 else torch.randint(-1000, 1000, (n,), device="cuda", dtype=dt))
            t = torch.zeros(TARGETS, device="cuda", dtype=dt)
            ms = timed(lambda: t.index_add_(0, idx, v), o.reps, o.warmup, sync, ev)
            rows.append(("torch.index_add_", name, str(dt).split(".")[1], ms,
                         12.0 * n + 8.0 * TARGETS))
            del v, t
        del idx
        torch.cuda.empty_cache()
    except Exception as e:  # noqa: BLE001 - a missing peer is reported, not fatal
        print(f"torch: {e}")
    try:
        import cupy as cp
        seq = cp.arange(n, dtype=cp.int64)
        x = (seq * HASH) % BINS
        del seq
        ms = timed(lambda: cp.bincount(x, minlength=BINS), o.reps, o.warmup,
                   cp.cuda.Device().synchronize, cp.cuda.Event)
        rows.append(("cupy.bincount", "bincount", "int64", ms, 8.0 * n))
        u = (cp.arange(n, dtype=cp.int64) * HASH) % UNIQUE
        ms = timed(lambda: cp.unique(u), o.reps, o.warmup, cp.cuda.Device().synchronize,
                   cp.cuda.Event)
        rows.append(("cupy.unique", "unique_i64", "int64", ms, 8.0 * n))
    except Exception as e:  # noqa: BLE001
        print(f"cupy: {e}")
    for peer, op, dt, ms, b in rows:
        print(f"{peer:18s} {op:16s} {dt:8s} n={n} {ms:9.3f} ms {b / (ms * 1e-3) / 1e9:8.1f} GB/s")
    if o.md and rows:
        with open(o.md, "a") as f:
            for peer, op, dt, ms, b in rows:
                f.write(f"| {peer} | {op} | {dt} | {n} | {ms:.4f} | {b / (ms * 1e-3) / 1e9:.1f} "
                        "| - | - |  |\n")


if __name__ == "__main__":
    main()
