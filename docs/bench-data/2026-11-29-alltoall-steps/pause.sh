#!/bin/bash
rounds=$1; colls=$2; shift 2
B=/work/main/build/dev/bin
for r in $(seq 1 $rounds); do
  for a in cur pause mpich; do
    echo "## $a round $r"
    case $a in
      mpich) mpirun.mpich -n 2 -bind-to core $B/mpi_collectives_mpich --only $colls "$@" 2>&1 ;;
      pause) X_PAUSE=1 LD_LIBRARY_PATH=/tmp/ab/pause $B/hlaunch -n 2 --bind-to core -x X_PAUSE -x LD_LIBRARY_PATH $B/mpi_collectives_halyard --only $colls "$@" 2>&1 ;;
      cur) LD_LIBRARY_PATH=/tmp/ab/cur $B/hlaunch -n 2 --bind-to core -x LD_LIBRARY_PATH $B/mpi_collectives_halyard --only $colls "$@" 2>&1 ;;
    esac
  done
done
