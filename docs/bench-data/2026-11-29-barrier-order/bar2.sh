#!/bin/bash
# bar2.sh ROUNDS N [ONLY]: old lib / new / Open MPI tuned / MPICH, alternating; prints per impl values
# OLD: the folder holding the "old" libhalyard.so.0 (default /tmp/ab/base).
rounds=$1; n=$2; only=${3:-barrier}; B=/work/main/build/dev/bin
for r in $(seq 1 $rounds); do
  impls="old new tuned adapt"; (( r % 2 )) || impls="adapt tuned new old"
  for i in $impls; do
    case $i in
      old) out=$(LD_LIBRARY_PATH=${OLD:-/tmp/ab/base} $B/hlaunch --oversubscribe -n $n -x LD_LIBRARY_PATH $B/mpi_collectives_halyard --only $only --max-size ${MAX:-4} 2>&1);;
      new) out=$($B/hlaunch --oversubscribe -n $n $B/mpi_collectives_halyard --only $only --max-size ${MAX:-4} 2>&1);;
      tuned) out=$(mpirun --allow-run-as-root --oversubscribe -n $n --mca btl vader,self --mca coll_tuned_priority 100 $B/mpi_collectives_openmpi --only $only --max-size ${MAX:-4} 2>/dev/null);;
      adapt) out=$(mpirun --allow-run-as-root --oversubscribe -n $n --mca btl vader,self --mca coll_adapt_priority 100 $B/mpi_collectives_openmpi --only $only --max-size ${MAX:-4} 2>/dev/null);;
    esac
    echo "$out" | awk -v i=$i '/^# MPI_/{c=$2} /^[0-9]/{print i, c, $1, $2}'
  done
done | python3 -c '
import sys,collections,statistics as st
d=collections.defaultdict(list)
for l in sys.stdin:
    i,c,s,v=l.split(); d[(c,s,i)].append(float(v))
keys=sorted(set((c,s) for c,s,i in d))
for c,s in keys:
    row=[]
    for i in ["old","new","tuned","adapt"]:
        v=d.get((c,s,i),[])
        row.append("%s %.2f (%.2f-%.2f)"%(i,st.median(v),min(v),max(v)) if v else i+" -")
    print(c,s," | ".join(row))
'
