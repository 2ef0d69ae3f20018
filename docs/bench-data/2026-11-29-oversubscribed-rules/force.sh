#!/bin/bash
# force.sh ROUNDS N COLL "ALG1 ALG2 ..." ARGS... : mpi_collectives with HALYARD_<COLL>_ALG forced, alternating; plus Open MPI tuned
rounds=$1; n=$2; coll=$3; algs=$4; shift 4
B=${B:-/work/main/build/dev/bin}
var=HALYARD_$(echo $coll | tr a-z A-Z)_ALG
for r in $(seq 1 $rounds); do
  for a in $algs tuned; do
    echo "## $a round $r"
    if [ $a = tuned ]; then
      mpirun --allow-run-as-root --oversubscribe -n $n --mca btl vader,self --mca coll_tuned_priority 100 $B/mpi_collectives_openmpi --only $coll "$@" 2>/dev/null
    else
      env $var=$a $B/hlaunch --oversubscribe -n $n -x $var $B/mpi_collectives_halyard --only $coll "$@" 2>&1
    fi
  done
done
