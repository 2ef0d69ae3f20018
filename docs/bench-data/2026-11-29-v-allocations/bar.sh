#!/bin/bash
# bar.sh ROUNDS N: barrier latency, halyard libs A/B and Open MPI (tuned), alternating
rounds=$1; n=$2; H=/work/main/build/dev/bin/hlaunch
for r in $(seq 1 $rounds); do
  impls="vsmall flat ompi"; (( r % 2 )) || impls="ompi flat vsmall"
  for i in $impls; do
    if [ $i = ompi ]; then
      v=$(mpirun --allow-run-as-root --oversubscribe -n $n --mca btl vader,self /work/main/build/dev/bin/mpi_collectives_openmpi --only barrier --scale 0.3 2>/dev/null | awk '/^[0-9]/ {print $2}')
    else
      v=$(LD_LIBRARY_PATH=/tmp/ab/$i $H --oversubscribe -x LD_LIBRARY_PATH -n $n /tmp/ab/mpi_collectives_halyard --only barrier --scale 0.3 2>&1 | awk '/^[0-9]/ {print $2}')
    fi
    echo "$i $r $v"
  done
done
