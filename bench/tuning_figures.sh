#!/usr/bin/env bash
# tuning_figures.sh: htune --validate on one shape, and docs/tuning.md's figures in the form of the
# dissertation's Figure 6.1 (time of each search mode) and Figure 6.2 (per size: the exhaustive
# best, median and mean of all configurations, and the measured time of the configurations the
# task and task-heuristic modes chose).
#
#   bench/tuning_figures.sh --build build/dev --out DIR -n 16 --vnodes 2 [-- htune options...]
#
# Writes DIR/validate.txt (the report), DIR/htune.log (progress), DIR/tuning.json (the table),
# DIR/<collective>.dat, DIR/times.dat and, where gnuplot is installed, DIR/fig6_1.png and
# DIR/fig6_2_<collective>.png.
set -euo pipefail
build=build/dev out=tuning-figures ranks=4 vnodes=2
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -n) ranks=$2; shift 2 ;;
    --vnodes) vnodes=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "tuning_figures.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
"$build/bin/hlaunch" --oversubscribe -n "$ranks" --vnodes "$vnodes" -- "$build/bin/htune" --validate \
  --output "$out/tuning.json" --report "$out/validate.txt" "$@" >"$out/htune.stdout" 2>"$out/htune.log"

# Per collective: size best median mean task-choice task-heuristic-choice (us, measured).
for coll in bcast allreduce; do
  awk -v coll="$coll" '
    /^# / { block = ""; if ($2 == coll ",") block = $3; next }
    block != "" && $1 != "size" && NF > 8 {
      size[$1] = $1; best[$1] = $4; med[$1] = $5; mean[$1] = $6; chosen[block, $1] = $3
      if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
    }
    END {
      print "# size best median mean task task-heuristic"
      for (i = 1; i <= n; ++i) {
        s = order[i]
        print s, best[s], med[s], mean[s], chosen["task", s], chosen["task-heuristic", s]
      }
    }' "$out/validate.txt" >"$out/$coll.dat"
done
awk '/^# tuning time/ { on = 1; next } on && NF >= 2 { print $1, $2 }' "$out/validate.txt" \
  >"$out/times.dat"

if ! command -v gnuplot >/dev/null; then
  echo "gnuplot not installed: data in $out/*.dat" >&2
  exit 0
fi
gnuplot <<GP
set terminal pngcairo size 640,400
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set output "$out/fig6_1.png"
set title "Time of the searches ($ranks ranks, $vnodes nodes)"
set ylabel "tuning time (s)"
plot "$out/times.dat" using 2:xtic(1) notitle
set logscale y
set ylabel "time (us)"
set key top left
do for [c in "bcast allreduce"] {
  set output sprintf("$out/fig6_2_%s.png", c)
  set title sprintf("%s: chosen vs all configurations ($ranks ranks, $vnodes nodes)", c)
  plot sprintf("$out/%s.dat", c) using 2:xtic(1) title "exhaustive best", \
       "" using 3 title "median", "" using 4 title "mean", \
       "" using 5 title "task choice", "" using 6 title "task-heuristic choice"
}
GP
echo "figures in $out" >&2
