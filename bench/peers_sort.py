#!/usr/bin/env python3
"""Peers of gpux-bench's sort rows (issue 25, sort core): 2^28 random float32 keys sorted
(keys only: cupy.sort, CUB's radix sort; torch.sort returns indices too, so it is the
argsort peer), argsorted (torch.sort(stable=True)'s values + indices, cupy.argsort), and
2^28 random int32 keys sorted with their indices (torch.sort(stable=True): the SortPairs
peer of sort_pairs_i32). Gkeys/s = n / median time; GB/s as gpux-bench counts the rows (one
read of the input, one write of the outputs: 8 n, 12 n, 16 n). CUDA events, median of --reps
after --warmup; run in the same device call as gpux-bench.

    python3 bench/peers_sort.py [--n 2^28] [--reps 10] [--md FILE]
"""
from peers_index import args, timed  # warm-up runs, then the median of CUDA event times


def main():
    o = args(__doc__)
    n = o.n
    rows = []  # (peer, op, dtype, ms, bytes)
    try:
        import torch
        ev = lambda: torch.cuda.Event(enable_timing=True)  # noqa: E731
        sync = torch.cuda.synchronize
        x = torch.rand(n, device="cuda", dtype=torch.float32)
        ms = timed(lambda: torch.sort(x, stable=True), o.reps, o.warmup, sync, ev)
        rows.append(("torch.sort", "argsort_f32", "float32", ms, 12.0 * n))
        del x
        k = torch.randint(-2**31, 2**31 - 1, (n,), device="cuda", dtype=torch.int32)
        ms = timed(lambda: torch.sort(k, stable=True), o.reps, o.warmup, sync, ev)
        rows.append(("torch.sort", "sort_pairs_i32", "int32", ms, 16.0 * n))
        del k
        torch.cuda.empty_cache()
    except Exception as e:  # noqa: BLE001 - a missing peer is reported, not fatal
        print(f"torch: {e}")
    try:
        import cupy as cp
        x = cp.random.random(n, dtype=cp.float32)
        sync, ev = cp.cuda.Device().synchronize, cp.cuda.Event
        ms = timed(lambda: cp.sort(x), o.reps, o.warmup, sync, ev)
        rows.append(("cupy.sort (CUB)", "sort_f32", "float32", ms, 8.0 * n))
        ms = timed(lambda: cp.argsort(x), o.reps, o.warmup, sync, ev)
        rows.append(("cupy.argsort", "argsort_f32", "float32", ms, 12.0 * n))
        del x
        cp.get_default_memory_pool().free_all_blocks()
    except Exception as e:  # noqa: BLE001
        print(f"cupy: {e}")
    for peer, op, dt, ms, b in rows:
        print(f"{peer:18s} {op:16s} {dt:8s} n={n} {ms:9.3f} ms {n / (ms * 1e-3) / 1e9:7.2f} "
              f"Gkeys/s {b / (ms * 1e-3) / 1e9:8.1f} GB/s")
    if o.md and rows:
        with open(o.md, "a") as f:
            for peer, op, dt, ms, b in rows:
                f.write(f"| {peer} | {op} | {dt} | {n} | {ms:.4f} | {b / (ms * 1e-3) / 1e9:.1f} "
                        f"| - | - | {n / (ms * 1e-3) / 1e9:.2f} Gkeys/s |\n")


if __name__ == "__main__":
    main()
