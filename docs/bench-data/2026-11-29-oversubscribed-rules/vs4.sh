#!/bin/bash
# vs4.sh ROUNDS N ARGS...: Halyard (build/dev) and Open MPI tuned/adapt alternating, N oversubscribed ranks
rounds=$1; n=$2; shift 2
B=/work/main/build/dev/bin
for r in $(seq 1 $rounds); do
  impls="halyard tuned adapt"; (( r % 2 )) || impls="adapt tuned halyard"
  for i in $impls; do
    echo "## $i round $r"
    case $i in
      halyard) $B/hlaunch --oversubscribe -n $n $B/mpi_collectives_halyard "$@" 2>&1 ;;
      *) mpirun --allow-run-as-root --oversubscribe -n $n --mca btl vader,self --mca coll_${i}_priority 100 $B/mpi_collectives_openmpi "$@" 2>/dev/null ;;
    esac
  done
done
