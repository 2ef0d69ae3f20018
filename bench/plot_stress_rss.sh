#!/usr/bin/env bash
# plot_stress_rss.sh OUT.png LABEL=FILE...: rank 0's resident memory by tenth of the calls, one
# line per stress_collectives output (its "stress: RSS by tenth of the calls (MiB): ..." line).
# Needs gnuplot.
#   bench/plot_stress_rss.sh docs/img/stress_rss_100k_dev.png \
#     "3e7eb85=docs/bench-data/2026-11-26-stress/seed100_ops100000_3e7eb85.txt" \
#     "2c42740=docs/bench-data/2026-11-26-stress/seed100_ops100000_2c42740.txt"
set -euo pipefail
out=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
plots=()
for entry in "$@"; do
  label=${entry%%=*}
  file=${entry#*=}
  data="$work/${#plots[@]}.dat"
  grep -m1 "RSS by tenth" "$file" | sed 's/.*(MiB)://' | tr ' ' '\n' | grep . |
    awk '{ print NR * 10, $1 }' >"$data"
  plots+=("'$data' using 1:2 with linespoints title '$label'")
done
gnuplot <<PLOT
set terminal pngcairo size 800,450 font ',10'
set output '$out'
set title 'stress\\_collectives --seed 100 --ops 100000, 4 ranks on 2 emulated nodes: RSS of rank 0'
set xlabel '% of the calls done'; set ylabel 'MiB'; set yrange [0:*]; set grid; set key bottom right
plot $(IFS=,; echo "${plots[*]}")
PLOT
echo "wrote $out"
