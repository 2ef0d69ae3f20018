"""The torch.distributed backend "halyard" on CPU tensors, checked element by element on every
rank: each collective (blocking and async_op=True), the usual dtypes, send/recv, a subgroup,
refusals, then a DistributedDataParallel training loop that must end with the same parameters
as the same loop over Gloo. Under hlaunch it starts through halyard.torch.init_process_group();
under torchrun through dist.init_process_group("halyard") (env://).
Usage: torch_backend_check.py [all|collectives]"""

import os
import sys
import time
import traceback

import halyard.torch  # before torch: see docs/python.md, "Import order"
import torch
import torch.distributed as dist


def check(condition, what):
    if not condition:
        raise AssertionError(what)


def equal(got, expected, what):
    if not torch.equal(got, expected):
        raise AssertionError(f"{what}: got {got}, expected {expected}")


def refused(fragment, call, *args, **kwargs):
    try:
        call(*args, **kwargs)
    except RuntimeError as e:
        check(fragment in str(e), f"message {str(e)!r} lacks {fragment!r}")
        return
    raise AssertionError(f"{call.__name__} accepted what it must refuse ({fragment})")


def reductions(r, n):
    total = n * (n + 1) // 2
    for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8,
                  torch.uint8, torch.int16, torch.int32, torch.int64):
        t = torch.full((7,), r + 1, dtype=dtype)
        dist.all_reduce(t)
        equal(t, torch.full((7,), total, dtype=dtype), f"all_reduce sum {dtype}")
    for op, expected in ((dist.ReduceOp.MAX, n), (dist.ReduceOp.MIN, 1),
                         (dist.ReduceOp.PRODUCT, 1 * 2 * 3 if n == 3 else 2)):
        t = torch.full((3,), r + 1.0)
        dist.all_reduce(t, op=op)
        equal(t, torch.full((3,), float(expected)), f"all_reduce {op}")
    t = torch.full((5,), float(r))
    dist.reduce(t, dst=n - 1)
    if r == n - 1:
        equal(t, torch.full((5,), float(sum(range(n)))), "reduce")
    out = torch.empty(2, dtype=torch.int64)
    dist.reduce_scatter(out, [torch.full((2,), 10 * i + r, dtype=torch.int64) for i in range(n)])
    equal(out, torch.full((2,), n * 10 * r + sum(range(n)), dtype=torch.int64), "reduce_scatter")
    out = torch.empty(3)
    dist._reduce_scatter_base(out, torch.arange(3.0 * n))
    equal(out, n * torch.arange(3.0 * r, 3.0 * r + 3), "_reduce_scatter_base")


def movement(r, n):
    t = torch.arange(6, dtype=torch.float64) * (r + 1)
    dist.broadcast(t, src=1)
    equal(t, torch.arange(6, dtype=torch.float64) * 2, "broadcast from rank 1")
    flag = torch.tensor([r == 0, True])
    dist.broadcast(flag, src=0)
    equal(flag, torch.tensor([True, True]), "broadcast bool")
    parts = [torch.empty(2, 3) for _ in range(n)]
    dist.all_gather(parts, torch.full((2, 3), float(r)))
    for i, p in enumerate(parts):
        equal(p, torch.full((2, 3), float(i)), "all_gather")
    flat = torch.empty(4 * n, dtype=torch.int32)
    dist._all_gather_base(flat, torch.full((4,), r, dtype=torch.int32))
    equal(flat, torch.arange(n, dtype=torch.int32).repeat_interleave(4), "_all_gather_base")
    gathered = [torch.empty(2) for _ in range(n)] if r == 0 else None
    dist.gather(torch.full((2,), float(r)), gathered, dst=0)
    if r == 0:
        equal(torch.stack(gathered), torch.arange(float(n)).repeat_interleave(2).view(n, 2), "gather")
    mine = torch.empty(3, dtype=torch.int64)
    dist.scatter(mine, [torch.full((3,), 7 * i, dtype=torch.int64) for i in range(n)] if r == 1 else None, src=1)
    equal(mine, torch.full((3,), 7 * r, dtype=torch.int64), "scatter")
    out = torch.empty(n)
    dist.all_to_all_single(out, torch.arange(float(n)) + 10 * r)
    equal(out, 10 * torch.arange(float(n)) + r, "all_to_all_single")
    # Rank i sends i+1 rows to every peer: uneven splits.
    rows = torch.full((n * (r + 1), 2), float(r))
    got = torch.empty(sum(i + 1 for i in range(n)), 2)
    dist.all_to_all_single(got, rows, [i + 1 for i in range(n)], [r + 1] * n)
    expected = torch.cat([torch.full((i + 1, 2), float(i)) for i in range(n)])
    equal(got, expected, "all_to_all_single with splits")
    outs = [torch.empty(i + 1, dtype=torch.int16) for i in range(n)]
    dist.all_to_all(outs, [torch.full((r + 1,), 100 * r + i, dtype=torch.int16) for i in range(n)])
    for i, o in enumerate(outs):
        equal(o, torch.full((i + 1,), 100 * i + r, dtype=torch.int16), "all_to_all")
    dist.barrier()


def point_to_point(r, n):
    right, left = (r + 1) % n, (r - 1) % n
    incoming = torch.empty(4)
    req = dist.irecv(incoming, src=left, tag=3)
    dist.send(torch.full((4,), float(r)), dst=right, tag=3)
    req.wait()
    equal(incoming, torch.full((4,), float(left)), "irecv/send ring")


def asynchronous(r, n):
    # Rank 0 posts first while the others are late: async_op must return at once, and the work
    # completes by itself (the progress thread) while rank 0 does not call into torch.
    t = torch.full((1 << 16,), float(r))
    dist.all_reduce(t)  # the first call of a size may set up (collectively) what later ones use
    t.fill_(float(r))
    if r != 0:
        time.sleep(0.5)
    started = time.monotonic()
    work = dist.all_reduce(t, async_op=True)
    posted = time.monotonic() - started
    if r == 0:
        check(posted < 0.25 and not work.is_completed(), f"async all_reduce blocked {posted:.3f} s")
    deadline = time.monotonic() + 20
    while not work.is_completed() and time.monotonic() < deadline:
        time.sleep(0.01)
    check(work.is_completed(), "the work completed without a wait")
    work.wait()
    equal(t, torch.full((1 << 16,), float(sum(range(n)))), "async all_reduce")
    fut = dist.broadcast(torch.full((3,), float(r)), src=0, async_op=True).get_future()
    equal(fut.wait()[0], torch.zeros(3), "the work's future carries the output")


def groups_and_refusals(r, n):
    group = dist.new_group(list(range(n - 1, -1, -1)), backend="halyard")
    t = torch.full((2,), float(r))
    dist.all_reduce(t, group=group)
    equal(t, torch.full((2,), float(sum(range(n)))), "all_reduce on a new group")
    refused("dense contiguous", dist.all_reduce, torch.ones(4, 4).t())
    refused("reduce op", dist.all_reduce, torch.ones(2), op=dist.ReduceOp.AVG)
    refused("do not take", dist.all_reduce, torch.ones(2, dtype=torch.bool))
    c = torch.full((2,), complex(r, 1))  # torch reduces complex tensors as pairs of reals
    dist.all_reduce(c)
    equal(c, torch.full((2,), complex(sum(range(n)), n)), "all_reduce complex64")


def ddp_parameters(group, seed_data):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    ddp = torch.nn.parallel.DistributedDataParallel(model, process_group=group, bucket_cap_mb=0.0005)
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.1)
    generator = torch.Generator().manual_seed(seed_data)
    for _ in range(5):
        x = torch.randn(16, 8, generator=generator)
        y = torch.randn(16, 4, generator=generator)
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(ddp(x), y).backward()
        optimizer.step()
    return [p.detach().clone() for p in model.parameters()]


def ddp_against_gloo(r, n):
    gloo = dist.new_group(backend="gloo")
    with_halyard = ddp_parameters(None, 100 + r)
    with_gloo = ddp_parameters(gloo, 100 + r)
    for a, b in zip(with_halyard, with_gloo):
        check(torch.allclose(a, b, rtol=0, atol=1e-6),
              f"DDP parameters differ from Gloo's by {(a - b).abs().max().item()}")
    if n == 2:  # a sum of two is the same in any order: bit for bit
        check(all(torch.equal(a, b) for a, b in zip(with_halyard, with_gloo)), "DDP bitwise")


def main():
    if "HALYARD_JOB_ID" in os.environ:
        halyard.torch.init_process_group()
    else:
        dist.init_process_group("halyard")
    r, n = dist.get_rank(), dist.get_world_size()
    check(n >= 2 and str(dist.get_backend()).lower() == "halyard", "a halyard group of 2 ranks or more")
    reductions(r, n)
    movement(r, n)
    point_to_point(r, n)
    asynchronous(r, n)
    if (sys.argv[1:] or ["all"])[0] == "all":
        groups_and_refusals(r, n)
        ddp_against_gloo(r, n)
    dist.barrier()
    print(f"torch_backend_check: rank {r} of {n} ok")
    dist.destroy_process_group()


if __name__ == "__main__":
    try:
        main()
    except BaseException:
        traceback.print_exc()
        os._exit(1)  # at once: the runtime's exit-time finalize would wait for the other ranks
