#!/bin/bash
# vsweep2.sh N ROUNDS PROG MAXSIZE: default vs shm vs Open MPI (tuned), alternating
n=$1; rounds=$2; p=$3; m=$4; H=/work/main/build/dev/bin/hlaunch
var=HALYARD_$(echo $p | tr a-z A-Z)_ALG
for r in $(seq 1 $rounds); do
  for s in default shm ompi; do
    case $s in
      default) $H --oversubscribe -n $n /tmp/osu/mpi/collective/osu_$p -m 1:$m -i 200 -x 20 ;;
      shm) $H --oversubscribe -n $n -x $var=shm /tmp/osu/mpi/collective/osu_$p -m 1:$m -i 200 -x 20 ;;
      ompi) mpirun --allow-run-as-root --oversubscribe -n $n --mca btl vader,self /tmp/osu_openmpi/mpi/collective/osu_$p -m 1:$m -i 200 -x 20 2>/dev/null ;;
    esac 2>&1 | awk -v p=$p -v s=$s -v r=$r '/^[0-9]/ {print p, s, r, $1, $2}'
  done
done
