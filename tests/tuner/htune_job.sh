#!/bin/sh
# htune_job.sh HLAUNCH HTUNE TUNED_CHECK DIR: a tiny htune run on 2 emulated nodes writes a
# decision table; a second job runs bcast and allreduce with HALYARD_TUNING_FILE naming it and
# checks (tuned_check) that the runtime's choices are the table's and the results are right.
set -eu
hlaunch=$1 htune=$2 check=$3 dir=$4
mkdir -p "$dir"
rm -f "$dir/table.json"
"$hlaunch" --oversubscribe --timeout 60 -n 4 --vnodes 2 "$htune" --mode task-heuristic --space small \
  --min-size 16K --max-size 64K --size-factor 4 --segments 16K --iterations 2 --warmup 1 \
  --output "$dir/table.json"
test -s "$dir/table.json"
"$hlaunch" --oversubscribe --timeout 30 -n 4 --vnodes 2 -x HALYARD_TUNING_FILE="$dir/table.json" \
  "$check" "$dir/table.json"
