"""PyTorch's host <-> device copies, the peer figures for gpux-bench's transfer ops.

Run on the GPU machine in the same call as gpux-bench (bench/run_h200.sh does):

    python3 bench/peers_transfer.py [--sizes 2^18,2^24,2^28] [--reps 20] [--md FILE]

For each size (float32 elements): torch's copy_ host -> device and device -> host, from and
into pinned memory (pin_memory(), non_blocking=True) and pageable memory, timed by CUDA events
around the call (median of --reps after warm-up), GB/s = bytes one way / median. Appends
markdown rows in gpux-bench's table format to --md.
"""
import argparse
import statistics
import sys


def parse_size(s):
    return 2 ** int(s[2:]) if s.startswith("2^") else int(s)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="2^18,2^24,2^28")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--md", default=None)
    a = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("peers_transfer: no torch here", file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print("peers_transfer: no CUDA device", file=sys.stderr)
        return 77
    dev = torch.device("cuda")
    rows = []
    for n in (parse_size(s) for s in a.sizes.split(",")):
        d = torch.empty(n, dtype=torch.float32, device=dev)
        for pinned in (True, False):
            h = torch.empty(n, dtype=torch.float32, pin_memory=pinned)
            h.uniform_()
            for h2d in (True, False):
                def once():
                    if h2d:
                        d.copy_(h, non_blocking=pinned)
                    else:
                        h.copy_(d, non_blocking=pinned)
                for _ in range(3):
                    once()
                torch.cuda.synchronize()
                times = []
                for _ in range(a.reps):
                    e0 = torch.cuda.Event(enable_timing=True)
                    e1 = torch.cuda.Event(enable_timing=True)
                    e0.record()
                    once()
                    e1.record()
                    e1.synchronize()
                    times.append(e0.elapsed_time(e1))
                ms = statistics.median(times)
                gbps = n * 4 / (ms * 1e-3) / 1e9
                op = ("h2d_" if h2d else "d2h_") + ("pinned" if pinned else "pageable")
                note = "PyTorch %s copy_(%s)" % (torch.__version__,
                                                 "non_blocking=True, pin_memory()" if pinned
                                                 else "pageable")
                rows.append("| torch | %s | %s | float32 | %d | %.4g | %.1f | - | - | %s |"
                            % (torch.cuda.get_device_name(0), op, n, ms, gbps, note))
                print("  torch %-13s n=%-11d %10.4f ms %9.1f GB/s" % (op, n, ms, gbps))
    if a.md:
        with open(a.md, "a") as f:
            f.write("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
