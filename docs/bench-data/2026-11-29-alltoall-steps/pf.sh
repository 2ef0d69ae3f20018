#!/bin/bash
# pf.sh ROUNDS COLLS: 2 ranks bound, mpi_collectives: k2 (library), k8 (8 post lines), k8+X_PF (prefetch next line), mpich
rounds=$1; colls=$2; shift 2
B=/work/main/build/dev/bin
for r in $(seq 1 $rounds); do
  for a in k2 k8 k8pf mpich; do
    echo "## $a round $r"
    case $a in
      mpich) mpirun.mpich -n 2 -bind-to core $B/mpi_collectives_mpich --only $colls "$@" 2>&1 ;;
      k8pf) X_PF=1 LD_LIBRARY_PATH=/tmp/ab/k8pf $B/hlaunch -n 2 --bind-to core -x X_PF -x LD_LIBRARY_PATH $B/mpi_collectives_halyard --only $colls "$@" 2>&1 ;;
      *) LD_LIBRARY_PATH=/tmp/ab/$a $B/hlaunch -n 2 --bind-to core -x LD_LIBRARY_PATH $B/mpi_collectives_halyard --only $colls "$@" 2>&1 ;;
    esac
  done
done
