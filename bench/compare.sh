#!/usr/bin/env bash
# Halyard next to Open MPI's collective components and MPICH, in one invocation: the same MPI
# program (bench/mpi_collectives.c: Bcast, Reduce, Allreduce per size, and Barrier; with --only,
# also Allgather, Gather, Scatter, Reduce_scatter_block, Alltoall, Alltoallv) built with
# hmpicc (Halyard's MPI shim), with Open MPI's mpicc, run as coll "tuned", "han" and "adapt" (each
# chosen by MCA priority), and with MPICH's mpicc.mpich when it is installed. The implementations
# alternate, round after round, so a drift in the machine's load weighs on all of them; each
# figure is the best of the rounds' averages (--stat median: their median, for a machine whose
# runs fall into fast and slow groups, as this VM's do when two ranks land on sibling threads). Prints per collective and size every
# implementation's average latency, the best peer (the fastest of the Open MPI components and
# MPICH) and the ratio Halyard / best peer (below 1: Halyard faster), and writes OUT/table.txt,
# OUT/<coll>.dat, OUT/latency.png.
#
#   bench/compare.sh [--build DIR] [--baseline DIR] [--out DIR] [-n RANKS] [--vnodes K[,K...]]
#                    [--rounds R] [--stat best|median] [--timeout S] [--] [mpi_collectives args: --min-size B
#                    --max-size B --scale F --only COLL[,COLL...]]
#     e.g. bench/compare.sh --build build/dev -n 2 --max-size 4M --scale 0.3
#          bench/compare.sh -n 16 --vnodes 1,2,4 --max-size 16M --scale 0.3   (the GPU machine)
#
# --baseline DIR adds "halyard-baseline": the same program from another build of Halyard (an
# earlier commit), alternated with the others, with its own ratio column, so a change is
# measured before and after in one run.
#
# --vnodes with several values runs Halyard once per value, as implementations "halyard-1n",
# "halyard-2n", ... (hlaunch --vnodes K), each with its own ratio column.
#
# Halyard runs under hlaunch with its default selection and transports (shm within a node,
# ofi between the emulated nodes of --vnodes). Open MPI runs with
#   mpirun --allow-run-as-root --oversubscribe --bind-to core -n N --mca btl vader,self
# and MPICH (Debian's mpich: ch4, shared memory within a node, its default selection) with
#   mpirun.mpich -n N -bind-to core
# (no binding for either when N exceeds the cores) on this one host, so the peers always see ONE
# node whatever --vnodes says: all their traffic is shared memory, and Open MPI's coll/han
# disqualifies itself on a communicator whose ranks are all local (it then falls back to tuned).
# The script checks this with coll_base_verbose and says so in the table ("han inactive")
# instead of presenting tuned's figures under han's name. Without mpicc.mpich/mpirun.mpich the
# table says "mpich absent" and compares with Open MPI alone.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib_compare.sh"

build=build
out=""
ranks=2
vnodes=1
rounds=2
stat=best
run_timeout=300
program_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -n) ranks=$2; shift 2 ;;
    --vnodes) vnodes=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --stat) stat=$2; shift 2 ;;
    --timeout) run_timeout=$2; shift 2 ;;
    --) shift; program_args+=("$@"); break ;;
    *) program_args+=("$1"); shift ;;
  esac
done
# Whatever compare.sh does not know goes to mpi_collectives, before or after its own options.
set -- "${program_args[@]+"${program_args[@]}"}"
[[ $stat == best || $stat == median ]] || { echo "compare.sh: --stat is best or median, not '$stat'" >&2; exit 2; }
out=${out:-$build/compare}
bin="$build/bin"
require_built compare.sh "$bin/hlaunch" "$bin/mpi_collectives_halyard" "$bin/mpi_collectives_openmpi"
command -v mpirun >/dev/null || { echo "compare.sh: mpirun not found" >&2; exit 2; }
mkdir -p "$out/raw"

# Bound to cores like hlaunch's ranks, unless there are more ranks than cores (hlaunch then
# leaves them unbound too).
bind=core
[[ $ranks -le $(nproc) ]] || bind=none
mpirun_base=(mpirun --allow-run-as-root --oversubscribe --bind-to "$bind" -n "$ranks" --mca btl vader,self)
declare -A mca=(
  [ompi-tuned]="--mca coll_tuned_priority 100"
  [ompi-han]="--mca coll_han_priority 100"
  [ompi-adapt]="--mca coll_adapt_priority 100"
)
# Hydra runs any number of ranks on one host; unbound is its default.
mpich_base=(mpirun.mpich -n "$ranks")
[[ $bind == none ]] || mpich_base+=(-bind-to "$bind")

# peer_command IMPL: sets $cmd to the command line that runs IMPL's mpi_collectives (arguments
# to follow), IMPL being mpich or ompi-COMPONENT.
peer_command() {
  if [[ $1 == mpich ]]; then
    cmd=("${mpich_base[@]}" "$bin/mpi_collectives_mpich")
  else
    local extra
    read -ra extra <<<"${mca[$1]}"
    cmd=("${mpirun_base[@]}" "${extra[@]}" "$bin/mpi_collectives_openmpi")
  fi
}

# component_state NAME: "active", "absent" (ompi_info does not list it) or "inactive" (present,
# but Open MPI did not select it for MPI_COMM_WORLD: han disqualifies itself when every rank is
# on one node, or on 2 ranks for want of an underlying reduce). The only other communicator,
# MPI_COMM_SELF, is too small for han and adapt, so a "selecting" line means MPI_COMM_WORLD.
component_state() {
  local component=$1
  ompi_info 2>/dev/null | grep -q "MCA coll: $component " || { echo absent; return; }
  local log
  peer_command "ompi-$component"
  log=$(OMPI_MCA_coll_base_verbose=20 "${cmd[@]}" --max-size 4 --scale 0.01 --only bcast 2>&1 || true)
  if grep -q "coll:base:comm_select: selecting *$component, priority 100, Enabled" <<<"$log"; then
    echo active
  else
    echo inactive
  fi
}

halyards=()
if [[ $vnodes == *,* ]]; then
  IFS=, read -ra counts <<<"$vnodes"
  for k in "${counts[@]}"; do halyards+=("halyard-${k}n"); done
else
  halyards=(halyard)
fi
if [[ -n ${baseline:-} ]]; then
  [[ -x $baseline/bin/mpi_collectives_halyard ]] ||
    { echo "compare.sh: $baseline/bin/mpi_collectives_halyard missing (build the bench there)" >&2; exit 2; }
  halyards+=(halyard-baseline)
fi
impls=("${halyards[@]}")
notes=()    # peers left out, printed as "# not compared: NOTE"
remarks=()  # what else a reader of the table must know, printed as "# REMARK"
for component in tuned han adapt; do
  state=$(component_state "$component")
  if [[ $state == active ]]; then
    impls+=("ompi-$component")
  else
    notes+=("ompi-$component $state")
  fi
done
if command -v mpirun.mpich >/dev/null && [[ -x $bin/mpi_collectives_mpich ]]; then
  impls+=(mpich)
  # MPICH's ch4 progress spins without ever yielding the CPU (Open MPI yields when
  # oversubscribed), so with more ranks than cores a rank waiting for a descheduled one waits
  # out the scheduler's time slice: its figures then measure that, and its runs last long.
  [[ $bind == core ]] ||
    remarks+=("mpich: more ranks than cores, and MPICH busy-polls without yielding: its waits last scheduler time slices")
else
  notes+=("mpich absent (mpirun.mpich or $bin/mpi_collectives_mpich missing)")
fi

run_one() {  # run_one IMPL ROUND ARGS...
  local impl=$1 round=$2
  shift 2
  local file="$out/raw/$impl.$round.txt"
  if [[ $impl == halyard* ]]; then
    local k=${impl#halyard-} from=$bin
    k=${k%n}
    [[ $impl == halyard ]] && k=$vnodes
    [[ $impl == halyard-baseline ]] && k=${vnodes%%,*} && from=$baseline/bin
    timeout -k 10 "$run_timeout" "$from/hlaunch" --oversubscribe -n "$ranks" --vnodes "$k" -- \
      "$from/mpi_collectives_halyard" "$@" >"$file"
  else
    peer_command "$impl"
    timeout -k 10 "$run_timeout" "${cmd[@]}" "$@" >"$file"
  fi
}

start=$SECONDS
for ((round = 1; round <= rounds; ++round)); do
  # Rotate the order too, so no implementation always runs first (or right after another).
  for ((i = 0; i < ${#impls[@]}; ++i)); do
    impl=${impls[(i + round - 1) % ${#impls[@]}]}
    echo "compare.sh: round $round/$rounds: $impl ($((SECONDS - start)) s)" >&2
    run_one "$impl" "$round" "$@" || {
      status=$?
      # A peer that runs out of time (MPICH oversubscribed) still gave the sizes it finished;
      # any other failure, and any of Halyard's, ends the comparison.
      if [[ $impl == halyard* || ($status -ne 124 && $status -ne 137) ]]; then
        echo "compare.sh: $impl failed in round $round" >&2
        exit 1
      fi
      echo "compare.sh: $impl ran out of --timeout $run_timeout s in round $round" >&2
      remarks+=("$impl: round $round ran out of --timeout $run_timeout s; the sizes it finished are kept")
    }
  done
done

{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), $(nproc) cores, $ranks ranks, Halyard on $vnodes (emulated) node(s), the peers on 1 node; commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "# ${halyards[*]}: hlaunch --oversubscribe -n $ranks --vnodes K (K = $vnodes) $bin/mpi_collectives_halyard $*"
  [[ -n ${baseline:-} ]] && echo "# halyard-baseline: the same from $baseline (commit $(git -C "$baseline" rev-parse --short HEAD 2>/dev/null || echo unknown))"
  for impl in "${impls[@]}"; do
    [[ $impl == halyard* ]] && continue
    peer_command "$impl"
    echo "# $impl: ${cmd[*]} $*"
  done
  for remark in "${remarks[@]+"${remarks[@]}"}"; do echo "# $remark"; done
  for note in "${notes[@]+"${notes[@]}"}"; do echo "# not compared: $note"; done
  echo "# $stat of $rounds alternating rounds; average latency in us; best peer: the fastest of ${impls[*]:${#halyards[@]}}; ratio = Halyard / best peer"
  # Raw sections start "# MPI_Bcast latency, N ranks"; rows: size avg min max. Anything else
  # (what a launcher prints when a run is killed) is not a row.
  for impl in "${impls[@]}"; do
    for ((round = 1; round <= rounds; ++round)); do
      awk -v impl="$impl" '/^# MPI_/ { coll = tolower(substr($2, 5)); next }
                           $1 ~ /^[0-9]+$/ && NF == 4 { print impl, coll, $1, $2 }' "$out/raw/$impl.$round.txt"
    done
  done | awk -v out="$out" -v list="${impls[*]}" -v halyards="${#halyards[@]}" -v stat="$stat" '
    {
      key = $2 SUBSEP $3 SUBSEP $1
      values[key, ++runs[key]] = $4
      if (!(($2, $3) in seen)) { seen[$2, $3] = 1; order[++n] = $2 SUBSEP $3 }
    }
    END {
      # best[key]: the least of its rounds, or their median (the mean of the middle two).
      for (key in runs) {
        m = runs[key]
        for (a = 1; a <= m; ++a) sorted[a] = values[key, a] + 0
        for (a = 2; a <= m; ++a) for (b = a; b > 1 && sorted[b - 1] > sorted[b]; --b) {
          t = sorted[b]; sorted[b] = sorted[b - 1]; sorted[b - 1] = t
        }
        best[key] = stat == "median" ? (sorted[int((m + 1) / 2)] + sorted[int(m / 2) + 1]) / 2 : sorted[1]
      }
      count = split(list, impl, " ")
      for (i = 1; i <= n; ++i) {
        split(order[i], cs, SUBSEP); coll = cs[1]; size = cs[2]
        if (coll != shown) {
          printf "%-10s %10s", "# coll", "size(B)"
          for (j = 1; j <= count; ++j) printf " %11s", impl[j]
          printf " %11s", "best peer"
          for (j = 1; j <= count; ++j) if (impl[j] ~ /^halyard/) printf " %11s", (halyards > 1 ? (impl[j] == "halyard" ? "x" : "x " substr(impl[j], 9)) : "ratio")
          printf "\n"
          shown = coll
        }
        printf "%-10s %10s", coll, size
        line = size; bestpeer = ""; bestname = "-"
        for (j = 1; j <= count; ++j) {
          v = ((coll, size, impl[j]) in best) ? best[coll, size, impl[j]] : ""
          printf(" %11s", (v == "" ? "-" : sprintf("%.2f", v)))
          line = line " " (v == "" ? "NaN" : v)
          if (impl[j] !~ /^halyard/ && v != "" && (bestpeer == "" || v + 0 < bestpeer + 0)) { bestpeer = v; bestname = impl[j] }
        }
        printf " %11s", bestname
        for (j = 1; j <= count; ++j) {
          if (impl[j] !~ /^halyard/) continue
          h = ((coll, size, impl[j]) in best) ? best[coll, size, impl[j]] : ""
          ratio = (bestpeer != "" && h != "") ? h / bestpeer : 0
          printf(" %11s", (ratio > 0 ? sprintf("%.2f", ratio) : "-"))
          if (ratio > 0) {
            k = coll " (" impl[j] ")"
            if (!(k in total)) keys[++nkeys] = k
            if (ratio > worst[k]) { worst[k] = ratio; worst_size[k] = size }
            total[k]++; if (ratio <= 1.0) within[k]++
          }
        }
        printf "\n"
        print line > (out "/" coll ".dat")
      }
      for (i = 1; i <= nkeys; ++i) {
        k = keys[i]
        printf "# %s: <= 1.0x best peer at %d of %d sizes; worst %.2fx at %s B\n", k, within[k], total[k], worst[k], worst_size[k]
      }
    }'
} | tee "$out/table.txt"

# One panel per collective measured, one line per implementation (the columns of OUT/<coll>.dat
# from 2 on, in the order of $impls); the barrier, which has the one size, as one bar each.
read -ra colls <<<"$(awk '/^# MPI_/ { printf "%s ", tolower(substr($2, 5)) }' "$out/raw/${impls[0]}.1.txt")"
width=$((460 * ${#colls[@]} + 120))
bar_tics=""
for ((j = 0; j < ${#impls[@]}; ++j)); do bar_tics+="${bar_tics:+, }\"${impls[j]}\" $((j + 1))"; done
cat >"$out/plot.gp" <<PLOT
set terminal pngcairo size $((width < 1000 ? 1000 : width)),480
set output "$out/latency.png"
names = "${impls[*]}"
set multiplot layout 1,${#colls[@]} title "Halyard (hmpicc) vs Open MPI and MPICH, $ranks ranks, Halyard on $vnodes node(s), $(hostname), $(date -u +%Y-%m-%d)"
set logscale y
set ylabel "$stat average latency (us)"
set tmargin 3
set datafile missing "NaN"
set style fill solid 0.6
set boxwidth 0.7 absolute
do for [c in "${colls[*]}"] {
  set title "".c
  if (c eq "barrier") {
    unset logscale x
    unset key
    set xtics ($bar_tics) rotate by -30
    set xlabel ""
    set xrange [0.5:words(names) + 0.5]
    plot for [j = 1:words(names)] "$out/".c.".dat" using (j):(column(j + 1)) with boxes title word(names, j)
  } else {
    set logscale x
    set key top left noenhanced
    set xtics autofreq norotate
    set format x "10^{%L}"
    set xlabel "size (bytes)"
    set xrange [*:*]
    plot for [j = 1:words(names)] "$out/".c.".dat" using 1:(column(j + 1)) with linespoints title word(names, j)
  }
}
unset multiplot
PLOT
if command -v gnuplot >/dev/null; then
  gnuplot "$out/plot.gp" && echo "# plot: $out/latency.png"
else
  echo "# plot: gnuplot not installed; run 'gnuplot $out/plot.gp' where it is"
fi
