#!/bin/bash
# a2av_sweep.sh N ROUNDS: osu_alltoallv (OSU 5.7) with HALYARD_ALLTOALLV_ALG=base:pairwise and =shm, alternating
n=$1; rounds=$2; H=/work/main/build/dev/bin/hlaunch
for r in $(seq 1 $rounds); do
  algs="base:pairwise shm"; (( r % 2 )) || algs="shm base:pairwise"
  for a in $algs; do
    $H --oversubscribe -n $n -x HALYARD_ALLTOALLV_ALG=$a /tmp/osu/mpi/collective/osu_alltoallv -m 1:1048576 -i 200 -x 20 2>&1 | awk -v a=$a -v r=$r '/^[0-9]/ {print a, r, $1, $2}'
  done
done
