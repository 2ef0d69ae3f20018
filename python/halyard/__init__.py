"""Halyard's collectives for Python: run as `hlaunch -n N python3 script.py`.

    import numpy as np, halyard
    rt = halyard.Runtime()          # halyard.Error when not started by hlaunch
    w = rt.world
    out = np.empty(4, np.float32)
    w.allreduce(np.full(4, w.rank, np.float32), out)   # op defaults to halyard.SUM
    rt.finalize()

`import halyard.torch` registers the torch.distributed backend "halyard" (docs/python.md).
"""

try:
    from ._halyard import (  # noqa: F401  (the package's API)
        BAND, BOR, BXOR, LAND, LOR, LXOR, MAX, MIN, PROD, SUM,
        Communicator, Error, Op, Request, Runtime,
    )
except ImportError as error:
    if "static TLS" not in str(error):
        raise
    # libhalyard's thread-locals use glibc's spare static TLS, which torch's libraries use up
    # when they are loaded first (docs/python.md).
    raise ImportError(
        f"{error}: import halyard (or halyard.torch) before torch, or start Python with "
        "GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384") from error
