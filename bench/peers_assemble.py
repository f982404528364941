"""PyTorch's and CuPy's assembly ops, the peer figures for gpux-bench's concat / concat1 / roll
(issue 24). Run on the GPU machine in the same call as gpux-bench:

    python3 bench/peers_assemble.py [--sizes 2^28] [--reps 20] [--md FILE]

For each size n (float32 elements): concat joins two arrays of n / 2 into a preallocated n
(torch.cat(out=), cupy.concatenate(out=)), concat1 two side x side / 2 arrays along axis 1
(side = floor(sqrt(n)), even), roll shifts n elements by n / 3 (a new array, as gpux_roll).
Timed by CUDA events (median of --reps after 3 warm-up runs); GB/s counts the bytes read and
written, as gpux-bench does. Appends markdown rows in gpux-bench's table format to --md.
"""
import argparse
import math
import statistics
import sys


def parse_size(s):
    return 2 ** int(s[2:]) if s.startswith("2^") else int(s)


def median_ms(fn, reps, lib):
    for _ in range(3):
        fn()
    lib.sync()
    times = []
    for _ in range(reps):
        e0, e1 = lib.event(), lib.event()
        e0.record()
        fn()
        e1.record()
        e1.synchronize()
        times.append(lib.elapsed(e0, e1))
    return statistics.median(times)


class Torch:
    name = "pytorch"

    def __init__(self):
        import torch
        self.t = torch
        self.sync = torch.cuda.synchronize
        self.event = lambda: torch.cuda.Event(enable_timing=True)
        self.elapsed = lambda a, b: a.elapsed_time(b)

    def ops(self, n):
        t = self.t
        h = n // 2
        a, b, o = (t.rand(h, device="cuda"), t.rand(h, device="cuda"), t.empty(n, device="cuda"))
        side = int(math.isqrt(n)) // 2 * 2
        a1, b1 = t.rand(side, side // 2, device="cuda"), t.rand(side, side // 2, device="cuda")
        o1 = t.empty(side, side, device="cuda")
        x = t.rand(n, device="cuda")
        return [("concat", n, lambda: t.cat((a, b), out=o)),
                ("concat1", side * side, lambda: t.cat((a1, b1), dim=1, out=o1)),
                ("roll", n, lambda: t.roll(x, n // 3))]


class Cupy:
    name = "cupy"

    def __init__(self):
        import cupy
        self.c = cupy
        self.sync = cupy.cuda.Device().synchronize
        self.event = cupy.cuda.Event
        self.elapsed = cupy.cuda.get_elapsed_time

    def ops(self, n):
        c = self.c
        h = n // 2
        a, b, o = (c.random.rand(h, dtype=c.float32), c.random.rand(h, dtype=c.float32),
                   c.empty(n, dtype=c.float32))
        side = int(math.isqrt(n)) // 2 * 2
        a1 = c.random.rand(side, side // 2, dtype=c.float32)
        b1 = c.random.rand(side, side // 2, dtype=c.float32)
        o1 = c.empty((side, side), dtype=c.float32)
        x = c.random.rand(n, dtype=c.float32)
        return [("concat", n, lambda: c.concatenate((a, b), out=o)),
                ("concat1", side * side, lambda: c.concatenate((a1, b1), axis=1, out=o1)),
                ("roll", n, lambda: c.roll(x, n // 3))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="2^28")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--md", default=None)
    a = ap.parse_args()
    rows = []
    for cls in (Torch, Cupy):
        try:
            lib = cls()
        except Exception as e:  # noqa: BLE001 -- a peer missing here
            print(f"peers_assemble: no {cls.name}: {e}", file=sys.stderr)
            continue
        for n in (parse_size(s) for s in a.sizes.split(",")):
            for op, elems, fn in lib.ops(n):
                ms = median_ms(fn, a.reps, lib)
                gbs = 2 * 4 * elems / (ms * 1e6)
                print(f"{lib.name:8s} {op:8s} float32 {elems:12d} {ms:9.4f} ms {gbs:8.1f} GB/s")
                rows.append(f"| {lib.name} | {op} | float32 | {elems} | {ms:.4f} | {gbs:.1f} | - | - |  |")
    if a.md and rows:
        with open(a.md, "a") as f:
            f.write("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
