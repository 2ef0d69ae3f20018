"""What the Python module adds to a small allreduce (issue 28's goal: a 4-byte numpy allreduce
at most 2 us over the C++ call on 2 ranks). Times `w.allreduce(a, out)` of one float32 in
rounds and prints the median per call; bench/python_overhead.sh runs it alternately with
hbench's C++ figure for the same call and prints the difference.

    PYTHONPATH=build/dev/python build/dev/bin/hlaunch -n 2 /usr/bin/python3 bench/python_overhead.py
Options: --iterations N per round (default 100000), --rounds R (default 5)."""

import argparse
import statistics
import time

import numpy as np

import halyard


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=100000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with halyard.Runtime() as rt:
        w = rt.world
        a = np.ones(1, np.float32)
        out = np.empty_like(a)
        for _ in range(args.iterations // 10):
            w.allreduce(a, out)
        per_call = []
        for _ in range(args.rounds):
            w.barrier()
            started = time.perf_counter()
            for _ in range(args.iterations):
                w.allreduce(a, out)
            w.barrier()
            per_call.append((time.perf_counter() - started) / args.iterations)
        if out[0] != w.size:
            raise SystemExit(f"allreduce gave {out[0]}, expected {w.size}")
        if w.rank == 0:
            print(f"python allreduce 4 B: median {statistics.median(per_call) * 1e6:.3f} us "
                  f"(rounds {min(per_call) * 1e6:.3f}-{max(per_call) * 1e6:.3f})")


if __name__ == "__main__":
    main()
