#!/usr/bin/env bash
# Bcast / Reduce / Allreduce latency of the same MPI program (bench/mpi_collectives.c) built with
# hmpicc on Halyard and with Open MPI's mpicc, run one after the other on this machine, and the
# ratio per size. Writes the table to stdout and to OUT/table.txt, the figures to OUT/*.dat, and
# a log-log plot OUT/latency.png when gnuplot is installed (OUT/plot.gp otherwise, to run
# elsewhere).
#
#   bench/compare_mpi_collectives.sh [--build DIR] [--out DIR] [-n RANKS] [benchmark args...]
#     e.g. bench/compare_mpi_collectives.sh --build build -n 2 --max-size 16M
#
# Halyard runs under hlaunch with its default transports (shm within the node); Open MPI runs
# with its shared-memory BTL: mpirun --allow-run-as-root --oversubscribe -n N --mca btl vader,self.
# "ratio" is Halyard's average latency divided by Open MPI's: below 1 means Halyard is faster.
set -euo pipefail

build=build
out=""
ranks=2
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -n) ranks=$2; shift 2 ;;
    *) break ;;
  esac
done
out=${out:-$build/compare_mpi_collectives}
bin="$build/bin"
for program in "$bin/hlaunch" "$bin/mpi_collectives_halyard" "$bin/mpi_collectives_openmpi"; do
  [[ -x "$program" ]] || { echo "compare_mpi_collectives.sh: $program not built" >&2; exit 2; }
done
command -v mpirun >/dev/null || { echo "compare_mpi_collectives.sh: mpirun not found" >&2; exit 2; }
mkdir -p "$out"

"$bin/hlaunch" -n "$ranks" -- "$bin/mpi_collectives_halyard" "$@" >"$out/halyard.txt"
mpirun --allow-run-as-root --oversubscribe -n "$ranks" --mca btl vader,self \
  "$bin/mpi_collectives_openmpi" "$@" >"$out/openmpi.txt"

{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), $(nproc) cores, $ranks ranks"
  echo "# halyard: hlaunch -n $ranks $bin/mpi_collectives_halyard $*"
  echo "# openmpi: mpirun --allow-run-as-root --oversubscribe -n $ranks --mca btl vader,self $bin/mpi_collectives_openmpi $*"
  # Sections start with "# MPI_Bcast latency, N ranks"; rows are: size avg min max.
  awk -v out="$out" '
    /^# MPI_/ { coll = substr($2, 5); next }
    /^#/ { next }
    FNR == NR { avg[coll, $1] = $2; lo[coll, $1] = $3; hi[coll, $1] = $4; next }
    ((coll, $1) in avg) {
      if (coll != shown) {
        printf "%-10s %10s %12s %12s %12s %12s %7s\n", "# coll", "size(B)", "halyard avg", "(min/max)", "openmpi avg", "(min/max)", "ratio"
        shown = coll
      }
      ratio = avg[coll, $1] / $2
      printf "%-10s %10s %12.2f %12s %12.2f %12s %7.2f\n", coll, $1, avg[coll, $1], \
             sprintf("%.1f/%.1f", lo[coll, $1], hi[coll, $1]), $2, sprintf("%.1f/%.1f", $3, $4), ratio
      printf "%s %s %s\n", $1, avg[coll, $1], $2 > (out "/" tolower(coll) ".dat")
      if (ratio > worst[coll]) worst[coll] = ratio
    }
    END { for (c in worst) printf "# worst ratio %s: %.2f\n", c, worst[c] }
  ' "$out/halyard.txt" "$out/openmpi.txt"
} | tee "$out/table.txt"

cat >"$out/plot.gp" <<PLOT
set terminal pngcairo size 1400,450
set output "$out/latency.png"
set multiplot layout 1,3 title "Halyard MPI shim vs Open MPI, $ranks ranks, $(hostname)"
set logscale xy
set xlabel "size (bytes)"
set ylabel "average latency (us)"
set key top left
do for [c in "bcast reduce allreduce"] {
  set title c
  plot "$out/".c.".dat" using 1:2 with linespoints title "halyard", \
       "" using 1:3 with linespoints title "open mpi"
}
unset multiplot
PLOT
if command -v gnuplot >/dev/null; then
  gnuplot "$out/plot.gp" && echo "# plot: $out/latency.png"
else
  echo "# plot: gnuplot not installed; run 'gnuplot $out/plot.gp' where it is"
fi
