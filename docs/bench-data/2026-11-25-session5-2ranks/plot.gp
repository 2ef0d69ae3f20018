set terminal pngcairo size 1500,480
set output "docs/bench-data/2026-11-25-session5-2ranks/latency.png"
set multiplot layout 1,3 title "Halyard (hmpicc) vs Open MPI, 2 ranks, Halyard on 1 node(s), vm, 2026-11-25"
set logscale xy
set format x "10^{%L}"
set xlabel "size (bytes)"
set ylabel "best average latency (us)"
set key top left
set tmargin 3
set datafile missing "NaN"
do for [c in "bcast reduce allreduce"] {
  set title "".c
  plot "docs/bench-data/2026-11-25-session5-2ranks/".c.".dat" using 1:2 with linespoints title "halyard", "" using 1:3 with linespoints title "ompi-tuned", "" using 1:4 with linespoints title "ompi-adapt"
}
unset multiplot
