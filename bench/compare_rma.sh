#!/usr/bin/env bash
# One-sided communication next to Open MPI: OSU's osu_put_latency, osu_get_latency, osu_put_bw
# and osu_get_bw (fetched separately, never changed), built with Halyard's hmpicc and with Open
# MPI's mpicc, run on 2 ranks with the same options, the two alternating round after round; per
# size the best of the rounds and the ratio. Issue 26's goals: within 1.0x of Open MPI at every
# size on one node, within 1.2x over two emulated nodes (Halyard --vnodes 2: ofi over loopback)
# against Open MPI's tcp path (--mca pml ob1 --mca osc pt2pt --mca btl tcp,self).
#
#   bench/compare_rma.sh [--build DIR] [--rounds R] [--nodes one|two|both] OSU_DIR [-- OSU args]
#     e.g. bench/compare_rma.sh --build build/dev /work/suites/osu -- -m 1:1048576 -i 200
#
# Ratios: latency Halyard / Open MPI (below 1: Halyard faster); bandwidth Open MPI / Halyard
# (below 1: Halyard faster), so every column reads the same way against the goals. "ratio" is
# that of the best rounds; "paired" is the median of the rounds' own ratios (each round runs
# the two back to back) with their range, which a change in the machine's speed between rounds
# (this VM's memory bandwidth moves by 20% from minute to minute) does not sway.
set -euo pipefail

build=build rounds=3 nodes=both
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "compare_rma.sh: unknown option $1" >&2; exit 2 ;;
    *) osu=$1; shift ;;
  esac
done
[[ -n ${osu:-} && -f $osu/c/mpi/one-sided/osu_put_latency.c ]] ||
  { echo "compare_rma.sh: give the OSU micro-benchmarks' source folder (c/mpi/one-sided/...)" >&2; exit 2; }
osu_args=("$@")
[[ ${#osu_args[@]} -gt 0 ]] || osu_args=(-m 1:1048576 -i 100 -x 10)
bin=$(cd "$build/bin" && pwd)
for program in hlaunch hmpicc; do
  [[ -x $bin/$program ]] || { echo "compare_rma.sh: $bin/$program is not built" >&2; exit 2; }
done
command -v mpicc >/dev/null || { echo "compare_rma.sh: Open MPI's mpicc is not installed" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
programs=(osu_put_latency osu_get_latency osu_put_bw osu_get_bw)
# The four programs and OSU's utilities, built once per MPI.
build_with() {  # build_with NAME CC
  local out=$work/$1 cc=$2 util=$osu/c/util objects=() f
  mkdir -p "$out"
  for f in osu_util osu_util_mpi osu_util_graph osu_util_papi osu_util_validation; do
    "$cc" -O2 -I"$util" -c "$util/$f.c" -o "$out/$f.o"
    objects+=("$out/$f.o")
  done
  for f in "${programs[@]}"; do
    "$cc" -O2 -I"$util" "$osu/c/mpi/one-sided/$f.c" "${objects[@]}" -lm -lpthread -o "$out/$f"
  done
}
build_with halyard "$bin/hmpicc"
build_with openmpi mpicc

run() {  # run IMPL NODES PROGRAM: OSU's rows "size value"
  local impl=$1 where=$2 program=$3
  if [[ $impl == halyard ]]; then
    local spread=()
    [[ $where == two ]] && spread=(--vnodes 2)
    "$bin/hlaunch" -n 2 --bind-to core "${spread[@]}" -- "$work/halyard/$program" "${osu_args[@]}"
  else
    # One node: Open MPI's own choice (osc ucx over shared memory here). Two: its tcp path,
    # which must be asked for whole: osc pt2pt over pml ob1 over btl tcp (osc ucx would use
    # shared memory between the two local processes whatever the btl).
    local mca=()
    [[ $where == two ]] && mca=(--mca pml ob1 --mca osc pt2pt --mca btl tcp,self)
    mpirun --allow-run-as-root -n 2 --bind-to core "${mca[@]}" "$work/openmpi/$program" "${osu_args[@]}"
  fi | awk '$1 ~ /^[0-9]+$/ { print $1, $2 }'
}

wheres=(one two)
[[ $nodes == both ]] || wheres=("$nodes")
echo "# $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), $(nproc) cores; OSU args: ${osu_args[*]}; $rounds alternating rounds"
echo "# one node: Halyard hlaunch -n 2 --bind-to core, Open MPI's defaults; two: Halyard --vnodes 2, Open MPI --mca pml ob1 --mca osc pt2pt --mca btl tcp,self"
for where in "${wheres[@]}"; do
  for program in "${programs[@]}"; do
    results=$work/$where-$program
    : >"$results"
    for ((round = 1; round <= rounds; round++)); do
      impls=(halyard openmpi)
      ((round % 2)) || impls=(openmpi halyard)  # who goes first alternates too
      for impl in "${impls[@]}"; do
        run "$impl" "$where" "$program" | sed "s/^/$impl $round /" >>"$results"
      done
    done
    awk -v program="$program" -v where="$where" '
      { v = $4 + 0; k = $3; value[$1, $2, k] = v; if ($2 > rounds) rounds = $2
        if (!(($1, k) in best) || (program ~ /_bw$/ ? v > best[$1, k] : v < best[$1, k])) best[$1, k] = v
        if (!(k in seen)) { seen[k] = 1; order[++n] = k } }  # OSU prints sizes in increasing order
      function ratio(h, o) { return bw ? o / h : h / o }
      END {
        bw = program ~ /_bw$/
        printf "# %s, %s node%s: %s\n", program, where, where == "one" ? "" : "s", bw ? "MB/s (higher is better)" : "us (lower is better)"
        printf "%10s %12s %12s %8s %8s %13s\n", "size(B)", "halyard", "openmpi", "ratio", "paired", "range"
        worst = 0; worst_paired = 0
        for (i = 1; i <= n; i++) {
          k = order[i]; h = best["halyard", k]; o = best["openmpi", k]
          if (h == "" || o == "" || h == 0) continue
          r = ratio(h, o)
          if (r > worst) { worst = r; at = k }
          m = 0
          for (round = 1; round <= rounds; round++) {
            if ((("halyard", round, k) in value) && (("openmpi", round, k) in value) && value["halyard", round, k] > 0) {
              pr[++m] = ratio(value["halyard", round, k], value["openmpi", round, k])
            }
          }
          for (a = 2; a <= m; a++) for (b = a; b > 1 && pr[b - 1] > pr[b]; b--) { t = pr[b]; pr[b] = pr[b - 1]; pr[b - 1] = t }
          median = m % 2 ? pr[(m + 1) / 2] : (pr[m / 2] + pr[m / 2 + 1]) / 2
          if (median > worst_paired) { worst_paired = median; paired_at = k }
          printf "%10s %12.2f %12.2f %8.2f %8.2f %6.2f-%-6.2f\n", k, h, o, r, median, pr[1], pr[m]
        }
        printf "# %s, %s: worst ratio %.2f at %s B; worst paired median %.2f at %s B\n", program, where, worst, at, worst_paired, paired_at
      }' "$results"
  done
done
