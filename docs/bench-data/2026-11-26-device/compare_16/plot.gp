set terminal pngcairo size 1960,480
set output "/tmp/devout2/compare_16/latency.png"
names = "halyard ompi-tuned ompi-adapt"
set multiplot layout 1,4 title "Halyard (hmpicc) vs Open MPI and MPICH, 16 ranks, Halyard on 1 node(s), vm, 2026-11-26"
set logscale y
set ylabel "best average latency (us)"
set tmargin 3
set datafile missing "NaN"
set style fill solid 0.6
set boxwidth 0.7 absolute
do for [c in "bcast reduce allreduce barrier"] {
  set title "".c
  if (c eq "barrier") {
    unset logscale x
    unset key
    set xtics ("halyard" 1, "ompi-tuned" 2, "ompi-adapt" 3) rotate by -30
    set xlabel ""
    set xrange [0.5:words(names) + 0.5]
    plot for [j = 1:words(names)] "/tmp/devout2/compare_16/".c.".dat" using (j):(column(j + 1)) with boxes title word(names, j)
  } else {
    set logscale x
    set key top left noenhanced
    set xtics autofreq norotate
    set format x "10^{%L}"
    set xlabel "size (bytes)"
    set xrange [*:*]
    plot for [j = 1:words(names)] "/tmp/devout2/compare_16/".c.".dat" using 1:(column(j + 1)) with linespoints title word(names, j)
  }
}
unset multiplot
