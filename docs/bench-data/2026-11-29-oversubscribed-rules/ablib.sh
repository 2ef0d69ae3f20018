#!/bin/bash
# ablib.sh ROUNDS N "LIB1 LIB2 ..." ARGS... : mpi_collectives_halyard with each library folder (/tmp/ab/NAME) in turn, then Open MPI tuned
rounds=$1; n=$2; libs=$3; shift 3
B=${B:-/work/main/build/dev/bin}
over=(); ompi=(--bind-to core); ((n > 2)) && { over=(--oversubscribe); ompi=(--oversubscribe); }
for r in $(seq 1 $rounds); do
  for a in $libs tuned; do
    echo "## $a round $r"
    if [ $a = tuned ]; then
      mpirun --allow-run-as-root "${ompi[@]}" -n $n --mca btl vader,self --mca coll_tuned_priority 100 $B/mpi_collectives_openmpi "$@" 2>/dev/null
    else
      LD_LIBRARY_PATH=/tmp/ab/$a $B/hlaunch "${over[@]}" -n $n -x LD_LIBRARY_PATH $B/mpi_collectives_halyard "$@" 2>&1
    fi
  done
done
