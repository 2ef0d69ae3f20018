"""Halyard's collectives for Python: run as `hlaunch -n N python3 script.py`.

    import numpy as np, halyard
    rt = halyard.Runtime()          # halyard.Error when not started by hlaunch
    w = rt.world
    out = np.empty(4, np.float32)
    w.allreduce(np.full(4, w.rank, np.float32), out)   # op defaults to halyard.SUM
    rt.finalize()

`import halyard.torch` registers the torch.distributed backend "halyard" (docs/python.md).
"""

from ._halyard import (  # noqa: F401  (the package's API)
    BAND, BOR, BXOR, LAND, LOR, LXOR, MAX, MIN, PROD, SUM,
    Communicator, Error, Op, Request, Runtime,
)
