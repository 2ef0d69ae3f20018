#!/usr/bin/env bash
# sweep.sh BUILD RANKS ROUNDS: allgather, gather, scatter and reduce_scatter_block of 4 B to
# MAXSIZE (16M) per block through mpi_collectives_halyard, the built-in rule (auto) against the
# shm engine forced (HALYARD_<COLL>_ALG=shm), alternating; one line per figure:
# round collective setting size avg_us. SCALE (0.3) scales the iteration counts.
build=$1 n=$2 rounds=$3
for round in $(seq 1 "$rounds"); do
  for coll in allgather gather scatter reduce_scatter_block; do
    for alg in auto shm; do
      envs=()
      [[ $alg == auto ]] || envs=(-x "HALYARD_${coll^^}_ALG=$alg")
      timeout 300 "$build/bin/hlaunch" --oversubscribe -n "$n" "${envs[@]}" "$build/bin/mpi_collectives_halyard" \
        --only "$coll" --min-size 4 --max-size "${MAXSIZE:-16M}" --scale "${SCALE:-0.3}" 2>&1 |
        awk -v c="$coll" -v a="$alg" -v r="$round" '$1 ~ /^[0-9]+$/ {print r, c, a, $1, $2}'
    done
  done
done
