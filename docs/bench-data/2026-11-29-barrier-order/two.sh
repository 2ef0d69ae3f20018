#!/bin/bash
# two.sh ROUNDS [ONLY]: 2 ranks, old lib / new / Open MPI tuned / MPICH alternating; medians and ranges
# OLD: the folder holding the "old" libhalyard.so.0 (default /tmp/ab/base).
rounds=$1; only=${2:-bcast,reduce,allreduce,barrier}; B=/work/main/build/dev/bin
for r in $(seq 1 $rounds); do
  impls="old new tuned mpich"; (( r % 2 )) || impls="mpich tuned new old"
  for i in $impls; do
    case $i in
      old) out=$(LD_LIBRARY_PATH=${OLD:-/tmp/ab/base} $B/hlaunch -n 2 -x LD_LIBRARY_PATH $B/mpi_collectives_halyard --only $only --max-size ${MAX:-1K} 2>&1);;
      new) out=$($B/hlaunch -n 2 $B/mpi_collectives_halyard --only $only --max-size ${MAX:-1K} 2>&1);;
      tuned) out=$(mpirun --allow-run-as-root -n 2 --mca btl vader,self --mca coll_tuned_priority 100 $B/mpi_collectives_openmpi --only $only --max-size ${MAX:-1K} 2>/dev/null);;
      mpich) out=$(mpirun.mpich -n 2 $B/mpi_collectives_mpich --only $only --max-size ${MAX:-1K} 2>/dev/null);;
    esac
    echo "$out" | awk -v i=$i '/^# MPI_/{c=$2} /^[0-9]/{print i, c, $1, $2}'
  done
done | python3 -c '
import sys,collections,statistics as st
d=collections.defaultdict(list)
for l in sys.stdin:
    i,c,s,v=l.split(); d[(c,int(s),i)].append(float(v))
keys=sorted(set((c,s) for c,s,i in d))
for c,s in keys:
    row=[]; med={}
    for i in ["old","new","tuned","mpich"]:
        v=d.get((c,s,i),[])
        if v: med[i]=st.median(v); row.append("%s %.2f (%.2f-%.2f)"%(i,st.median(v),min(v),max(v)))
    peer=min(med.get("tuned",9e9),med.get("mpich",9e9))
    print("%-14s %8d"%(c,s)," | ".join(row), "| new/peer %.2f old/peer %.2f"%(med["new"]/peer, med["old"]/peer))
'
