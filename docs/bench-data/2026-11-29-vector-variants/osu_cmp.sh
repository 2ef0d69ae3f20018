#!/bin/bash
# osu_cmp.sh ROUNDS PROGRAM...: Halyard builds (IMPLS: folders under /tmp/ab), Open MPI (tuned)
# and MPICH alternating, OSU 5.7. NP ranks (default 2, bound to cores; more: oversubscribed,
# unbound), OSU_ARGS (default -m 1:1024 -i 10000 -x 1000).
rounds=$1; shift
np=${NP:-2}
args=${OSU_ARGS:-"-m 1:1024 -i 10000 -x 1000"}
H=/work/main/build/dev/bin/hlaunch
ompi_bind=(--bind-to core); mpich_bind=(-bind-to core); over=()
if ((np > 2)); then ompi_bind=(--oversubscribe); mpich_bind=(); over=(--oversubscribe); fi
for r in $(seq 1 $rounds); do
  for p in "$@"; do
    impls=${IMPLS:-"old new ompi mpich"}; (( r % 2 )) || impls=$(echo $impls | tr " " "\n" | tac | tr "\n" " ")
    for i in $impls; do
      case $i in
        ompi) out=$(mpirun --allow-run-as-root "${ompi_bind[@]}" -n $np --mca btl vader,self /tmp/osu_openmpi/mpi/collective/$p $args 2>/dev/null) ;;
        mpich) out=$(mpirun.mpich -n $np "${mpich_bind[@]}" /tmp/osu_mpich/mpi/collective/$p $args) ;;
        *) out=$(LD_LIBRARY_PATH=/tmp/ab/$i $H "${over[@]}" -x LD_LIBRARY_PATH -n $np /tmp/osu/mpi/collective/$p $args) ;;
      esac
      echo "$out" | awk -v i=$i -v p=$p -v r=$r '/^[0-9]/ {print p, i, r, $1, $2}'
    done
  done
done
