"""Every collective of the halyard module on numpy arrays and other buffers, checked element by
element on every rank, its refusals (message and exception type), split and dup communicators,
non-blocking requests and point-to-point. Run: hlaunch -n 3 python3 collectives_check.py"""

import array
import sys

import numpy as np

import halyard


def check(condition, what):
    if not condition:
        raise AssertionError(what)


def equal(got, expected, what):
    if not np.array_equal(np.asarray(got), np.asarray(expected)):
        raise AssertionError(f"{what}: got {got!r}, expected {expected!r}")


def refused(exception, fragment, call, *args):
    try:
        call(*args)
    except exception as e:
        check(fragment in str(e), f"message {str(e)!r} lacks {fragment!r}")
        return
    raise AssertionError(f"{call.__name__} accepted what it must refuse ({fragment})")


def reductions(w, r, n):
    ranks = np.arange(n)
    a = np.full(5, r + 1, np.float32)
    out = np.empty_like(a)
    check(w.allreduce(a, out) is out, "allreduce returns its recv buffer")
    equal(out, np.full(5, n * (n + 1) / 2), "allreduce sum float32")
    b = np.array([r, -r, 7], np.int64)
    w.allreduce(b, op=halyard.MAX)  # in place
    equal(b, [n - 1, 0, 7], "allreduce max int64 in place")
    h = np.full(3, 0.5 * (r + 1), np.float16)
    equal(w.allreduce(h, np.empty_like(h)), np.full(3, 0.5 * n * (n + 1) / 2), "float16")
    for dtype in (np.int8, np.uint16, np.int32, np.uint64, np.float64):
        x = np.full(4, r + 1, dtype)
        equal(w.allreduce(x, np.empty_like(x), halyard.PROD), np.full(4, np.prod(ranks + 1)), dtype)
    root_out = np.zeros(4, np.int32)
    w.reduce(np.full(4, r, np.int32), root_out, halyard.SUM, root=n - 1)
    equal(root_out, np.full(4, ranks.sum() if r == n - 1 else 0), "reduce to the last rank")
    inplace = np.full(2, r, np.int32)
    w.reduce(inplace, None, halyard.MIN, root=0)
    equal(inplace, np.zeros(2) if r == 0 else np.full(2, r), "reduce in place at the root")
    s = np.empty(3, np.int32)
    equal(w.scan(np.full(3, r + 1, np.int32), s), np.full(3, (r + 1) * (r + 2) // 2), "scan")
    e = np.zeros(3, np.int32)
    w.exscan(np.full(3, r + 1, np.int32), e)
    if r > 0:
        equal(e, np.full(3, r * (r + 1) // 2), "exscan")
    block = np.empty(2, np.float64)
    w.reduce_scatter_block(np.arange(2 * n, dtype=np.float64), block)
    equal(block, n * np.arange(2 * r, 2 * r + 2), "reduce_scatter_block")
    counts = [i + 1 for i in range(n)]
    part = np.empty(r + 1, np.int32)
    w.reduce_scatter(np.arange(sum(counts), dtype=np.int32), part, counts)
    start = sum(counts[:r])
    equal(part, n * np.arange(start, start + r + 1), "reduce_scatter")


def movement(w, r, n):
    c = np.array([1 + 2j, r], np.complex128) if r == 1 else np.zeros(2, np.complex128)
    equal(w.bcast(c, root=1), [1 + 2j, 1], "bcast complex128 as bytes")
    g = np.empty((n, 2), np.int16)
    w.allgather(np.array([r, 10 * r], np.int16), g)
    equal(g, [[i, 10 * i] for i in range(n)], "allgather")
    root = np.zeros(n, np.float32) if r == 0 else None
    w.gather(np.array([r], np.float32), root, root=0)
    if r == 0:
        equal(root, np.arange(n), "gather")
    mine = np.empty(2, np.int32)
    w.scatter(np.arange(2 * n, dtype=np.int32) if r == 1 else None, mine, root=1)
    equal(mine, [2 * r, 2 * r + 1], "scatter")
    t = np.empty(n, np.int64)
    w.alltoall(np.arange(n, dtype=np.int64) + 100 * r, t)
    equal(t, 100 * np.arange(n) + r, "alltoall")
    counts = [i + 1 for i in range(n)]
    whole = np.zeros(sum(counts), np.int32)
    w.allgatherv(np.full(r + 1, r, np.int32), whole, counts)
    equal(whole, np.repeat(np.arange(n), counts), "allgatherv")
    gv = np.full(2 * n, -1, np.int32)
    w.gatherv(np.full(1, r, np.int32), gv, [1] * n, [2 * i for i in range(n)], root=0)
    if r == 0:
        equal(gv[::2], np.arange(n), "gatherv with displacements")
    sv = np.empty(r + 1, np.int32)
    w.scatterv(np.repeat(np.arange(n), counts).astype(np.int32), sv, counts, root=0)
    equal(sv, np.full(r + 1, r), "scatterv")
    send = np.repeat(np.arange(n) + 10 * r, 1).astype(np.int32)
    recv = np.empty(n, np.int32)
    w.alltoallv(send, [1] * n, recv, [1] * n)
    equal(recv, 10 * np.arange(n) + r, "alltoallv")
    b = bytearray(b"halyard!" if r == 0 else bytes(8))
    w.bcast(b)
    check(bytes(b) == b"halyard!", "bcast into a bytearray")
    ints = array.array("i", [r] * 3)
    w.allreduce(ints)
    check(list(ints) == [sum(range(n))] * 3, "allreduce on an array.array")


def nonblocking_and_p2p(w, r, n):
    a = np.full(1000, r, np.float64)
    out = np.empty_like(a)
    req = w.iallreduce(a, out)
    while not req.test():
        pass
    check(req.done, "a tested request is done")
    equal(req.wait(), np.full(1000, sum(range(n))), "iallreduce")
    requests = [w.ibcast(np.full(3, r, np.int32) if r == 0 else np.empty(3, np.int32)) for _ in range(4)]
    for q in requests:
        equal(q.wait(), np.zeros(3), "ibcast")
    w.ibarrier().wait()
    right, left = (r + 1) % n, (r - 1) % n
    incoming = np.empty(4, np.int32)
    recv = w.irecv(incoming, left, tag=7)
    w.send(np.full(4, r, np.int32), right, tag=7)
    equal(recv.wait(), np.full(4, left), "ring send/irecv")


def communicators(w, r, n):
    half = w.split(r % 2, key=-r)
    members = [i for i in range(n) if i % 2 == r % 2]
    check(half.size == len(members), "split size")
    check(half.rank == sorted(members, reverse=True).index(r), "split rank ordered by key")
    equal(half.allreduce(np.array([r], np.int32), np.empty(1, np.int32)), [sum(members)], "split allreduce")
    d = w.dup()
    check((d.rank, d.size) == (r, n), "dup")
    d.barrier()


def refusals(w, r, n):
    x = np.arange(8, dtype=np.float32)
    refused(ValueError, "not contiguous", w.allreduce, x[::2], np.empty(4, np.float32))
    refused(TypeError, "cannot be reduced", w.allreduce, np.zeros(2, np.complex64), np.zeros(2, np.complex64))
    refused(TypeError, "cannot be sent", w.bcast, np.array([None, 1], object))
    refused(TypeError, "is not a buffer", w.bcast, [1, 2, 3])
    refused(ValueError, "holds 3 elements, the call needs 8", w.allreduce, x, np.empty(3, np.float32))
    refused(ValueError, "differs from the send buffer", w.allreduce, x, np.empty(8, np.float64))
    readonly = np.zeros(8, np.float32)
    readonly.flags.writeable = False
    refused(ValueError, "read-only", w.allreduce, x, readonly)
    refused(ValueError, "one entry per rank", w.allgatherv, x, np.empty(8, np.float32), [1])
    refused(halyard.Error, "root", w.bcast, np.zeros(1, np.int32), n + 5)


def main():
    with halyard.Runtime() as rt:
        w = rt.world
        r, n = w.rank, w.size
        check((rt.rank, rt.size) == (r, n) and n >= 2, "rank and size")
        reductions(w, r, n)
        movement(w, r, n)
        nonblocking_and_p2p(w, r, n)
        communicators(w, r, n)
        refusals(w, r, n)
        w.barrier()
    check(rt.finalized, "the context manager finalizes")
    refused(halyard.Error, "finalized", w.barrier)
    print(f"collectives_check: rank {r} of {n} ok")


if __name__ == "__main__":
    sys.exit(main())
