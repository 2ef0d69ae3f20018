#!/bin/bash
# ab4.sh ROUNDS N ARGS...: A/B libraries alternating on N oversubscribed ranks
rounds=$1; n=$2; shift 2; A=${A:-old}; B=${B:-new}
H=/work/main/build/dev/bin/hlaunch
for r in $(seq 1 $rounds); do
  if (( r % 2 )); then order="$A $B"; else order="$B $A"; fi
  for v in $order; do
    echo "## $v round $r"
    LD_LIBRARY_PATH=/tmp/ab/$v $H --oversubscribe -x LD_LIBRARY_PATH -n $n /tmp/ab/mpi_collectives_halyard "$@" 2>&1
  done
done
