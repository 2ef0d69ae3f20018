#!/bin/bash
# policy.sh ROUNDS N "POLICY..." ARGS : mpi_collectives_halyard with HALYARD_WAIT=each policy, then Open MPI tuned
rounds=$1; n=$2; pols=$3; shift 3
B=${B:-/work/main/build/dev/bin}
for r in $(seq 1 $rounds); do
  for a in $pols tuned; do
    echo "## $a round $r"
    if [ $a = tuned ]; then
      mpirun --allow-run-as-root --oversubscribe -n $n --mca btl vader,self --mca coll_tuned_priority 100 $B/mpi_collectives_openmpi "$@" 2>/dev/null
    else
      HALYARD_WAIT=$a $B/hlaunch --oversubscribe -n $n -x HALYARD_WAIT $B/mpi_collectives_halyard "$@" 2>&1
    fi
  done
done
