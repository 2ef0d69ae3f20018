"""torch.distributed allreduce and broadcast of float32 tensors, 4 B to 64 MiB: the "halyard"
backend beside "gloo" in one job, alternating per size so both see the same machine. Rank 0
prints one row per size: each backend's median time per call and halyard/gloo (issue 28's goal:
<= 0.5 at every size).

    PYTHONPATH=build/release/python build/release/bin/hlaunch -n 2 /usr/bin/python3 bench/torch_vs_gloo.py
    PYTHONPATH=build/release/python torchrun --standalone --nproc_per_node 2 bench/torch_vs_gloo.py
Options: --max-bytes N (default 64 MiB), --ops allreduce,broadcast, --repeats R (default 5)."""

import argparse
import os
import statistics
import time

import halyard.torch  # before torch (docs/python.md, "Import order")
import torch
import torch.distributed as dist


def time_per_call(op, tensor, group, iterations):
    run = {"allreduce": lambda: dist.all_reduce(tensor, group=group),
           "broadcast": lambda: dist.broadcast(tensor, src=0, group=group)}[op]
    for _ in range(max(2, iterations // 10)):
        run()
    dist.barrier(group=group)
    started = time.perf_counter()
    for _ in range(iterations):
        run()
    dist.barrier(group=group)  # the slowest rank's time, as every rank waits here
    return (time.perf_counter() - started) / iterations


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-bytes", type=int, default=64 << 20)
    parser.add_argument("--ops", default="allreduce,broadcast")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if "HALYARD_JOB_ID" in os.environ:
        halyard.torch.init_process_group()
    else:
        dist.init_process_group("halyard")
    torch.set_num_threads(1)
    groups = {"halyard": dist.group.WORLD, "gloo": dist.new_group(backend="gloo")}
    rank = dist.get_rank()
    if rank == 0:
        print(f"# {dist.get_world_size()} ranks; median of {args.repeats} runs per size, us per call")
        print(f"{'op':10} {'bytes':>10} {'halyard_us':>12} {'gloo_us':>12} {'ratio':>7}")
    for op in args.ops.split(","):
        size = 4
        while size <= args.max_bytes:
            tensor = torch.ones(size // 4)
            iterations = max(5, min(2000, (256 << 20) // (size * 64)))
            times = {name: [] for name in groups}
            for _ in range(args.repeats):
                for name, group in groups.items():
                    times[name].append(time_per_call(op, tensor, group, iterations))
            h, g = (statistics.median(times[name]) * 1e6 for name in ("halyard", "gloo"))
            if rank == 0:
                print(f"{op:10} {size:>10} {h:>12.1f} {g:>12.1f} {h / g:>7.2f}", flush=True)
            size *= 4
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
