#!/bin/sh
# htune_validate_job.sh HLAUNCH HTUNE DIR: htune --validate on 2 emulated nodes (one size, the
# small space) runs the three modes; the report holds every (collective, mode) table with its
# re-timed summary and the tuning time of each mode.
set -eu
hlaunch=$1 htune=$2 dir=$3
mkdir -p "$dir"
rm -f "$dir/report.txt" "$dir/progress.txt"
"$hlaunch" --oversubscribe --timeout 60 -n 4 --vnodes 2 "$htune" --validate --validate-rounds 2 \
  --space small --min-size 16K --max-size 16K --segments 16K --iterations 2 --warmup 1 \
  --output "$dir/table.json" --report "$dir/report.txt" 2>"$dir/progress.txt" >/dev/null
fail() { echo "htune_validate_job: $1" >&2; cat "$dir/report.txt" "$dir/progress.txt" >&2; exit 1; }
for coll in bcast allreduce; do
  for mode in task task-heuristic; do
    grep -q "^# $coll, $mode mode vs exhaustive$" "$dir/report.txt" || fail "no $coll/$mode table"
  done
done
test "$(grep -c 're-timed side by side: [0-9] of 1$' "$dir/report.txt")" -eq 4 ||
  fail "expected 4 re-timed summaries of 1 size"
for mode in exhaustive task task-heuristic; do
  grep -q "^$mode  *[0-9.]*  *[0-9.]*% of exhaustive$" "$dir/report.txt" || fail "no time of $mode"
done
test -s "$dir/table.json" || fail "no table"
