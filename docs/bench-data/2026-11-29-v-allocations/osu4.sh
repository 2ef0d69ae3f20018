#!/bin/bash
# osu4.sh ROUNDS N PROGRAM...: N oversubscribed ranks, Halyard libraries (IMPLS) and Open MPI alternating;
# OSU 5.7 with OSU_ARGS (default -m 1:1048576 -i 200 -x 20)
rounds=$1; n=$2; shift 2
args=${OSU_ARGS:-"-m 1:1048576 -i 200 -x 20"}
H=/work/main/build/dev/bin/hlaunch
for r in $(seq 1 $rounds); do
  for p in "$@"; do
    impls=${IMPLS:-"base cur ompi"}; (( r % 2 )) || impls=$(echo $impls | tr " " "\n" | tac | tr "\n" " ")
    for i in $impls; do
      case $i in
        ompi) out=$(mpirun --allow-run-as-root --oversubscribe -n $n --mca btl vader,self /tmp/osu_openmpi/mpi/collective/$p $args 2>/dev/null) ;;
        *) out=$(LD_LIBRARY_PATH=/tmp/ab/$i $H --oversubscribe -x LD_LIBRARY_PATH -n $n /tmp/osu/mpi/collective/$p $args) ;;
      esac
      echo "$out" | awk -v i=$i -v p=$p -v r=$r '/^[0-9]/ {print p, i, r, $1, $2}'
    done
  done
done
