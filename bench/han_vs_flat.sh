#!/usr/bin/env bash
# HAN against the flat algorithms on emulated nodes: the same MPI program
# (bench/mpi_collectives.c, built with hmpicc) run once per algorithm, forced with
# HALYARD_<COLL>_ALG, repeated REPS times with the algorithms interleaved; each figure is the best
# (lowest) of the REPS average latencies, which on a shared machine is the least disturbed one.
# Writes OUT/raw/*.txt (every run), OUT/<coll>.dat (a header line, then size and one column per
# algorithm, HAN first),
# OUT/table.txt (HAN, the best flat algorithm, the speedup) and OUT/han_vs_flat.png.
#
#   bench/han_vs_flat.sh [--build DIR] [--out DIR] [--reps R] [-n RANKS] [--vnodes K]
#                        [--colls "allreduce bcast"] [--han "VAR=VALUE ..."] [benchmark args...]
#     e.g. bench/han_vs_flat.sh --build build/dev -n 8 --vnodes 2 --min-size 4 --max-size 16M
#
# --han passes HAN's own knobs (HALYARD_HAN_SEGSIZE=1M ...) to the HAN runs only.
set -euo pipefail

build=build
out=""
reps=3
ranks=8
vnodes=2
colls="allreduce bcast"
han_env=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    -n) ranks=$2; shift 2 ;;
    --vnodes) vnodes=$2; shift 2 ;;
    --colls) colls=$2; shift 2 ;;
    --han) han_env=$2; shift 2 ;;
    *) break ;;
  esac
done
out=${out:-$build/han_vs_flat}
bin="$build/bin"
for program in "$bin/hlaunch" "$bin/mpi_collectives_halyard"; do
  [[ -x "$program" ]] || { echo "han_vs_flat.sh: $program not built" >&2; exit 2; }
done
mkdir -p "$out/raw"

algorithms_of() {
  case "$1" in
    allreduce) echo "han base:ring base:recursive_doubling base:rabenseifner" ;;
    bcast) echo "han base:linear base:binomial adapt:chain adapt:binary adapt:binomial adapt:knomial adapt:topo" ;;
    reduce) echo "han base:linear base:binomial adapt:chain adapt:binary adapt:binomial adapt:knomial adapt:topo" ;;
    *) echo "han_vs_flat.sh: no algorithm list for $1" >&2; exit 2 ;;
  esac
}

for coll in $colls; do
  variable="HALYARD_${coll^^}_ALG"
  for rep in $(seq 1 "$reps"); do
    for alg in $(algorithms_of "$coll"); do
      extra=()
      if [[ $alg == han ]]; then
        for kv in $han_env; do extra+=(-x "$kv"); done
      fi
      "$bin/hlaunch" --oversubscribe -n "$ranks" --vnodes "$vnodes" --timeout 120 -x "$variable=$alg" "${extra[@]}" \
        -- "$bin/mpi_collectives_halyard" --only "$coll" "$@" >"$out/raw/${coll}_${alg//:/_}_$rep.txt"
    done
  done
  # Per size and algorithm, the best average over the repetitions.
  algs=$(algorithms_of "$coll")
  {
    printf "size"
    for alg in $algs; do printf " %s" "$alg"; done
    printf "\n"
    for size in $(awk '!/^#/ {print $1}' "$out/raw/${coll}_han_1.txt"); do
      printf "%s" "$size"
      for alg in $algs; do
        cat "$out/raw/${coll}_${alg//:/_}_"*.txt |
          awk -v s="$size" '!/^#/ && $1 == s { if (best == "" || $2 < best) best = $2 } END { printf " %.2f", best }'
      done
      printf "\n"
    done
  } >"$out/$coll.dat"
done

{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), $(nproc) cores, $ranks ranks in $vnodes emulated nodes, best of $reps runs"
  echo "# args: $* ; HAN knobs: ${han_env:-defaults}"
  for coll in $colls; do
    awk -v coll="$coll" '
      $1 == "size" { for (i = 2; i <= NF; ++i) name[i] = $i; n = NF; next }
      {
        best = ""; which = ""
        for (i = 3; i <= n; ++i) if (best == "" || $i < best) { best = $i; which = name[i] }
        if (!header) { printf "%-10s %10s %12s %12s %-22s %8s\n", "# coll", "size(B)", "han(us)", "flat(us)", "best flat", "speedup"; header = 1 }
        printf "%-10s %10s %12.2f %12.2f %-22s %8.2f\n", coll, $1, $2, best, which, best / $2
      }' "$out/$coll.dat"
  done
} | tee "$out/table.txt"

cat >"$out/plot.gp" <<PLOT
set terminal pngcairo size 1400,500 noenhanced
set output "$out/han_vs_flat.png"
set multiplot layout 1,2 title "HAN vs flat algorithms, $ranks ranks in $vnodes emulated nodes, $(hostname) ($(nproc) cores, shared)"
set logscale xy
set xlabel "size (bytes)"
set ylabel "best average latency (us)"
set key top left
do for [c in "$colls"] {
  set title c
  plot for [i=2:9] "$out/".c.".dat" using 1:i with linespoints lw (i == 2 ? 3 : 1) title columnhead(i)
}
unset multiplot
PLOT
if command -v gnuplot >/dev/null; then
  gnuplot "$out/plot.gp" 2>/dev/null && echo "# plot: $out/han_vs_flat.png"
else
  echo "# plot: gnuplot not installed; run 'gnuplot $out/plot.gp' where it is"
fi
