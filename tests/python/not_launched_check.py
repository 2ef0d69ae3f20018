"""Started without hlaunch, halyard.Runtime() raises halyard.Error saying how to start the
script; singleton=True runs a one-rank runtime instead."""

import numpy as np

import halyard

try:
    halyard.Runtime()
    raise AssertionError("halyard.Runtime() started outside hlaunch")
except halyard.Error as e:
    assert "not started by hlaunch" in str(e) and "hlaunch -n N python3" in str(e), str(e)
    assert isinstance(e, RuntimeError)

with halyard.Runtime(singleton=True) as rt:
    a = np.arange(4, dtype=np.int32)
    assert rt.world.size == 1 and np.array_equal(rt.world.allreduce(a, np.empty_like(a)), a)
print("not_launched_check: ok")
