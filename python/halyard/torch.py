"""torch.distributed backend "halyard": importing this module registers it.

    import torch.distributed as dist
    import halyard.torch
    dist.init_process_group("halyard")    # under torchrun (env://), or any init_method
    halyard.torch.init_process_group()    # under hlaunch (a FileStore named after the job)

Its collectives take CPU tensors; async_op=True returns at once and Halyard's progress thread
completes the work (docs/python.md)."""

import atexit
import os
import tempfile

import torch.distributed as dist

from . import _halyard_torch

BACKEND = "halyard"


def _create(store, rank, size, timeout):
    return _halyard_torch.create_process_group(store, rank, size, timeout)


def init_process_group(**kwargs):
    """dist.init_process_group("halyard") for a script that hlaunch started: rank and size from
    HALYARD_RANK and HALYARD_SIZE, the store a file named after HALYARD_JOB_ID (one host; use
    torchrun across hosts)."""
    job = os.environ.get("HALYARD_JOB_ID")
    if job is None:
        raise RuntimeError("halyard.torch.init_process_group: not started by hlaunch "
                           "(HALYARD_JOB_ID is not set); under torchrun call "
                           "torch.distributed.init_process_group('halyard')")
    path = os.path.join(tempfile.gettempdir(), f"halyard-torch-{job}")
    dist.init_process_group(BACKEND, init_method=f"file://{path}",
                            rank=int(os.environ["HALYARD_RANK"]),
                            world_size=int(os.environ["HALYARD_SIZE"]), **kwargs)


if not hasattr(dist.Backend, BACKEND.upper()):
    dist.Backend.register_backend(BACKEND, _create)
atexit.register(_halyard_torch.finalize)
