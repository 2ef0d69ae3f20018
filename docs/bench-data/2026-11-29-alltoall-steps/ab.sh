#!/bin/bash
# ab.sh ROUNDS N COLL "LIB1 LIB2" ARGS...: mpi_collectives --only COLL with each /tmp/ab/LIB, and Open MPI tuned, alternating
rounds=$1; n=$2; coll=$3; libs=$4; shift 4
B=/work/main/build/dev/bin
for r in $(seq 1 $rounds); do
  for a in $libs tuned; do
    echo "## $a round $r"
    if [ $a = tuned ]; then
      mpirun --allow-run-as-root --oversubscribe -n $n --mca btl vader,self --mca coll_tuned_priority 100 $B/mpi_collectives_openmpi --only $coll "$@" 2>/dev/null
    else
      LD_LIBRARY_PATH=/tmp/ab/$a $B/hlaunch --oversubscribe -n $n -x LD_LIBRARY_PATH $B/mpi_collectives_halyard --only $coll "$@" 2>&1
    fi
  done
done | grep -v "^# " | awk -v libs="$libs tuned" '/^##/{h=$2; next} {t[h" "$1]=t[h" "$1]" "$2; sz[$1]=1} END{n=split(libs,L," "); for(s in sz){line=s; for(i=1;i<=n;i++) line=line" | "L[i]":"t[L[i]" "s]; print line}}' | sort -n
