#!/bin/sh
# cpu_share_job.sh HLAUNCH RANK_PROGRAM: hlaunch under taskset keeps its ranks on the CPU it was
# given, and ranks that must share it do not busy-poll (and take the rules of shared CPUs); a
# single rank on it does.
set -eu
hlaunch=$1 rank=$2
# The first CPU this test may use (CI machines may hand out any subset).
cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
for bind in default core none; do
  flag=""
  [ "$bind" = default ] || flag="--bind-to $bind"
  # shellcheck disable=SC2086
  taskset -c "$cpu" "$hlaunch" --timeout 20 -n 2 --oversubscribe $flag "$rank" "$cpu" sleep
done
taskset -c "$cpu" "$hlaunch" --timeout 20 -n 3 --oversubscribe "$rank" "$cpu" sleep
taskset -c "$cpu" "$hlaunch" --timeout 20 -n 1 "$rank" "$cpu" spin
