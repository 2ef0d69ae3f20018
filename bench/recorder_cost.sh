#!/usr/bin/env bash
# What the flight recorder costs a small collective: hbench at 2 ranks with the recorder off
# (HALYARD_RECORDER_SIZE=0: setting A) and on (64, the default: setting B), the same binary,
# alternated round after round (odd rounds run A first, even rounds B first, so that neither
# gains from going second). Prints each run, then per collective the median of each setting,
# their ratio B/A, and the quartiles of the per-round ratios (the two runs of a round are next
# to each other in time, so slow drift cancels). Issue 27: no measurable change at 4 B.
#
#   bench/recorder_cost.sh [BUILD_DIR] [ROUNDS] [ITERATIONS]   e.g. bench/recorder_cost.sh build 31
#
# RECORDER_COST_SIZES="0 0" runs an A/A check of the method itself (both settings off).
set -euo pipefail

build=${1:-build}
rounds=${2:-31}
iterations=${3:-50000}
read -r size_a size_b <<<"${RECORDER_COST_SIZES:-0 64}"
bin="$build/bin"
for program in hlaunch hbench; do
  [[ -x "$bin/$program" ]] || { echo "recorder_cost.sh: $bin/$program is not built" >&2; exit 2; }
done

results=$(mktemp)
csv=$(mktemp)
trap 'rm -f "$results" "$csv"' EXIT
echo "# $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), $(nproc) cores; hbench 2 ranks, 4 B," \
  "$iterations iterations, $rounds rounds; A: HALYARD_RECORDER_SIZE=$size_a, B: $size_b"
echo "# round setting collective avg(us)"
for ((round = 1; round <= rounds; round++)); do
  order="A B"
  ((round % 2)) || order="B A"
  for setting in $order; do
    size=$size_a
    [[ $setting == B ]] && size=$size_b
    "$bin/hlaunch" -n 2 -x HALYARD_RECORDER_SIZE=$size -- "$bin/hbench" --quiet \
      --coll allreduce,bcast,reduce,barrier --min-size 4 --max-size 4 \
      --iterations "$iterations" --csv "$csv" >/dev/null
    # CSV columns: benchmark, ..., avg_us (11th)
    awk -F, -v setting=$setting -v round=$round 'NR > 1 { print round, setting, $1, $11 }' "$csv"
  done
done | tee "$results"
awk '
  { t[$3, $2, ++n[$3, $2]] = $4; v[$3, $2, $1] = $4; colls[$3] = 1 }
  function median(a, m,    i, j, x) {
    for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
  }
  function setting(c, s,    a, i) { for (i = 1; i <= n[c, s]; i++) a[i] = t[c, s, i]; return median(a, n[c, s]) }
  function ratio_quantile(c, q,    a, i, m) {
    m = n[c, "B"]
    for (i = 1; i <= m; i++) a[i] = v[c, "B", i] / v[c, "A", i]
    median(a, m)
    return a[int((m - 1) * q + 0.5) + 1]
  }
  END {
    printf "%-10s %9s %9s %7s %24s\n", "# coll", "A(us)", "B(us)", "B/A", "round B/A q1 median q3"
    for (c in colls) {
      a = setting(c, "A"); b = setting(c, "B")
      printf "%-10s %9.3f %9.3f %7.3f %12.3f %6.3f %6.3f\n", c, a, b, b / a, ratio_quantile(c, 0.25), ratio_quantile(c, 0.5), ratio_quantile(c, 0.75)
    }
  }' "$results"
