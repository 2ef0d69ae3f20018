#!/bin/bash
# vsweep.sh N ROUNDS: OSU v-variants, default rules vs HALYARD_<COLL>_ALG=shm, alternating
n=$1; rounds=$2; H=/work/main/build/dev/bin/hlaunch
for r in $(seq 1 $rounds); do
  for p in ${PROGS:-allgatherv gatherv scatterv}; do
    var=HALYARD_$(echo $p | tr a-z A-Z)_ALG
    for s in default shm; do
      if [ $s = shm ]; then X="-x $var=shm"; else X=""; fi
      $H --oversubscribe -n $n $X /tmp/osu/mpi/collective/osu_$p -m 1:1048576 -i 200 -x 20 2>&1 | awk -v p=$p -v s=$s -v r=$r '/^[0-9]/ {print p, s, r, $1, $2}'
    done
  done
done
