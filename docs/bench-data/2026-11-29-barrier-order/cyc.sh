#!/bin/bash
# cyc.sh ROUNDS N: per-iteration time of {COLL; barrier} loops (rank 0's clock, 20,000 iterations),
# OLD: the folder holding the "old" libhalyard.so.0 (default /tmp/ab/base).
# old lib / new / Open MPI tuned (/ MPICH on 2 ranks), the order reversed every other round
rounds=$1; n=$2; H=/work/main/build/dev/bin/hlaunch
for r in $(seq 1 $rounds); do
  impls="old new tuned mpich"; (( r % 2 )) || impls="mpich tuned new old"
  for c in none bcast scatter reduce gather allreduce; do
    for i in $impls; do
      case $i in
        old) v=$(LD_LIBRARY_PATH=${OLD:-/tmp/ab/base} $H --oversubscribe -n $n -x LD_LIBRARY_PATH ./cycle_h $c 20000);;
        new) v=$($H --oversubscribe -n $n ./cycle_h $c 20000);;
        tuned) v=$(mpirun --allow-run-as-root --oversubscribe -n $n --mca btl vader,self ./cycle_o $c 20000 2>/dev/null);;
        mpich) [ $n = 2 ] || continue; v=$(mpirun.mpich -n $n ./cycle_m $c 20000 2>/dev/null);;
      esac
      echo "$c $i $(echo $v | awk '{print $2}')"
    done
  done
done | python3 -c '
import sys,collections,statistics as st
d=collections.defaultdict(list); order=[]
for l in sys.stdin:
    c,i,v=l.split(); d[(c,i)].append(float(v))
    if c not in order: order.append(c)
for c in order:
    print("%-10s"%c, " | ".join("%s %.2f (%.2f-%.2f)"%(i,st.median(d[(c,i)]),min(d[(c,i)]),max(d[(c,i)])) for i in ["old","new","tuned","mpich"] if (c,i) in d))
'
