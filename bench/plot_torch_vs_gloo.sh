#!/usr/bin/env bash
# plot_torch_vs_gloo.sh OUT.png TABLE...: time per call against message size, "halyard" and
# Gloo, one panel per table and op, from the tables bench/torch_vs_gloo.py prints (their first
# line, "# N ranks; ...", titles each panel). Needs gnuplot.
#   bench/plot_torch_vs_gloo.sh docs/img/torch_vs_gloo_dev.png \
#     docs/bench-data/2026-11-26-torch/torch_vs_gloo_n2.txt \
#     docs/bench-data/2026-11-26-torch/torch_vs_gloo_n4_oversubscribed.txt
set -euo pipefail
out=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
panels=()
for table in "$@"; do
  title=$(head -1 "$table" | sed 's/^# //; s/;.*//')
  for op in allreduce broadcast; do
    data="$work/${#panels[@]}.dat"
    awk -v op="$op" '$1 == op { print $2, $3, $4 }' "$table" >"$data"
    panels+=("$data|$op, $title")
  done
done
{
  echo "set terminal pngcairo size $((560 * ${#panels[@]} / 2)),900 font ',10'"
  echo "set output '$out'"
  echo "set multiplot layout 2,$((${#panels[@]} / 2)) columnsfirst"
  echo "set logscale xy; set format x '%.0s%cB'; set xlabel 'bytes'; set ylabel 'us per call'"
  echo "set key top left; set grid"
  for panel in "${panels[@]}"; do
    echo "set title '${panel#*|}'"
    echo "plot '${panel%%|*}' using 1:2 with linespoints title 'halyard', '' using 1:3 with linespoints title 'gloo'"
  done
  echo "unset multiplot"
} | gnuplot
echo "wrote $out"
