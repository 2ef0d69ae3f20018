#!/bin/bash
# ab.sh ROUNDS ARGS...: old/new libraries alternating, mpi_collectives output per run
rounds=$1; shift; A=${A:-old}; B=${B:-new}
H=/work/main/build/dev/bin/hlaunch
for r in $(seq 1 $rounds); do
  if (( r % 2 )); then order="$A $B"; else order="$B $A"; fi
  for v in $order; do
    echo "## $v round $r"
    LD_LIBRARY_PATH=/tmp/ab/$v $H -x LD_LIBRARY_PATH --oversubscribe -n ${NP:-2} /tmp/ab/mpi_collectives_halyard "$@" 2>&1
  done
done
