#!/bin/bash
# osu_cmp.sh ROUNDS PROGRAM...: 2 ranks, Halyard builds (IMPLS: folders under /tmp/ab), Open MPI (tuned),
# MPICH alternating; OSU 5.7, -m 1:1024
rounds=$1; shift
H=/work/main/build/dev/bin/hlaunch
for r in $(seq 1 $rounds); do
  for p in "$@"; do
    impls=${IMPLS:-"old new ompi mpich"}; (( r % 2 )) || impls=$(echo $impls | tr " " "\n" | tac | tr "\n" " ")
    for i in $impls; do
      case $i in
        ompi) out=$(mpirun --allow-run-as-root --bind-to core -n 2 --mca btl vader,self /tmp/osu_openmpi/mpi/collective/$p -m 1:1024 -i 10000 -x 1000 2>/dev/null) ;;
        mpich) out=$(mpirun.mpich -n 2 -bind-to core /tmp/osu_mpich/mpi/collective/$p -m 1:1024 -i 10000 -x 1000) ;;
        *) out=$(LD_LIBRARY_PATH=/tmp/ab/$i $H -x LD_LIBRARY_PATH -n 2 /tmp/osu/mpi/collective/$p -m 1:1024 -i 10000 -x 1000) ;;
      esac
      echo "$out" | awk -v i=$i -v p=$p -v r=$r '/^[0-9]/ {print p, i, r, $1, $2}'
    done
  done
done
