"""PyTorch's and CuPy's boolean masks, the peer figures for gpux-bench's compress / nonzero
(issue 24). Run on the GPU machine in the same call as gpux-bench:

    python3 bench/peers_mask.py [--sizes 2^28] [--reps 20] [--md FILE]

For each size n: x (float32, n elements) and a half-true random bool mask; compress is
x[mask] (torch, cupy), nonzero torch.nonzero(mask) (an (count, 1) int64 tensor) and
cupy.nonzero(mask) (a tuple of int64 arrays), each a new result whose size the data decides,
as gpux_compress / gpux_nonzero. Timed by CUDA events (median of --reps after 3 warm-up runs:
peers_assemble.median_ms); GB/s counts the bytes gpux-bench counts: compress x + mask +
output (n (4 + 1) + 4 count), nonzero mask + output (n + 8 count). Appends markdown rows in
gpux-bench's table format to --md.
"""
import argparse
import sys

from peers_assemble import median_ms, parse_size


class Torch:
    name = "pytorch"

    def __init__(self):
        import torch
        self.t = torch
        self.sync = torch.cuda.synchronize
        self.event = lambda: torch.cuda.Event(enable_timing=True)
        self.elapsed = lambda a, b: a.elapsed_time(b)

    def data(self, n):
        t = self.t
        return t.rand(n, device="cuda"), t.rand(n, device="cuda") < 0.5

    def ops(self, x, m):
        return [("compress", lambda: x[m]), ("nonzero", lambda: self.t.nonzero(m))]

    def count(self, m):
        return int(m.sum().item())


class Cupy:
    name = "cupy"

    def __init__(self):
        import cupy
        self.c = cupy
        self.sync = cupy.cuda.Device().synchronize
        self.event = cupy.cuda.Event
        self.elapsed = cupy.cuda.get_elapsed_time

    def data(self, n):
        c = self.c
        return c.random.rand(n, dtype=c.float32), c.random.rand(n, dtype=c.float32) < 0.5

    def ops(self, x, m):
        return [("compress", lambda: x[m]), ("nonzero", lambda: self.c.nonzero(m))]

    def count(self, m):
        return int(m.sum())


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
            print(f"peers_mask: no {cls.name}: {e}", file=sys.stderr)
            continue
        for n in (parse_size(s) for s in a.sizes.split(",")):
            x, m = lib.data(n)
            k = lib.count(m)
            for op, fn in lib.ops(x, m):
                ms = median_ms(fn, a.reps, lib)
                moved = n * 5 + 4 * k if op == "compress" else n + 8 * k
                gbs = moved / (ms * 1e6)
                print(f"{lib.name:8s} {op:8s} float32 {n:12d} {ms:9.4f} ms {gbs:8.1f} GB/s")
                rows.append(f"| {lib.name} | {op} | float32 | {n} | {ms:.4f} | {gbs:.1f} | - | - "
                            f"| half-true mask ({k} true) |")
    if a.md and rows:
        with open(a.md, "a") as f:
            f.write("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
