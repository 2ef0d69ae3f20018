#!/usr/bin/env bash
# The flight recorder's verdict on demand: starts `hang_rank MODE` on 4 ranks, waits until
# ranks 0, 1 and 3 wait in allreduce #2 and rank 2 skipped it, asks with `hlaunch --dump PID`,
# and checks that hlaunch names rank 2 (and, for stop, that it is stopped; for compute, running).
# The recorder is on by default; off (HALYARD_RECORDER_SIZE=0, rank 2 skipping) the dump says so.
#   hang_verdict_test.sh HLAUNCH HANG_RANK skip|stop|compute|off
set -uo pipefail
hlaunch=$1 rank_program=$2 mode=$3
out=$(mktemp -d)
trap 'kill -KILL "$pid" 2>/dev/null; rm -rf "$out"' EXIT

if [[ $mode == off ]]; then
  "$hlaunch" --oversubscribe --timeout 60 -n 4 -x HALYARD_RECORDER_SIZE=0 "$rank_program" skip \
    >"$out/log" 2>&1 &
else
  "$hlaunch" --oversubscribe --timeout 60 -n 4 "$rank_program" "$mode" >"$out/log" 2>&1 &
fi
pid=$!

wait_for() {  # wait_for REGEX: up to 20 s for a line of the log matching REGEX entirely
  for _ in $(seq 200); do
    grep -Eqx -- "$1" "$out/log" && return 0
    sleep 0.1
  done
  echo "FAIL: no line matching '$1' in:"; cat "$out/log"; exit 1
}

wait_for "rank 2 skips"
for r in 0 1 3; do wait_for "rank $r waits"; done
case $mode in
  stop) state="stopped \(SIGSTOP\)" ;;
  compute) state="running \(computing, or polling\)" ;;
  *) state="" ;;
esac
if [[ $mode == off ]]; then
  "$hlaunch" --dump "$pid" || { echo "FAIL: hlaunch --dump $pid failed"; exit 1; }
  wait_for "hlaunch: flight recorder \(SIGUSR1\): no rank keeps a flight recorder \(HALYARD_RECORDER_SIZE=0, or none initialized yet\)"
  for r in 0 1 2 3; do
    wait_for "hlaunch: flight recorder \(SIGUSR1\): rank $r: (.*; )?no flight recorder \(.*\)"
  done
  kill -TERM "$pid"
  wait "$pid"
  echo "PASS: off"
  exit 0
fi
why=""
[[ -n $state ]] && why=" \($state\)"
verdict="hlaunch: flight recorder \(SIGUSR1\): rank 2 never entered allreduce #2 on comm 0$why; ranks 0-1,3 wait for it"
# A rank prints "waits" just before it enters allreduce #2: on a loaded machine one may not be
# inside yet at the first dump, so ask again (each dump prints a whole verdict) up to 10 times.
for _ in $(seq 10); do
  "$hlaunch" --dump "$pid" || { echo "FAIL: hlaunch --dump $pid failed"; exit 1; }
  sleep 0.5
  grep -Eqx -- "$verdict" "$out/log" && break
done
wait_for "$verdict"
for r in 0 1 3; do
  wait_for "hlaunch: flight recorder \(SIGUSR1\): rank $r: (.*; )?waiting in allreduce #2 on comm 0 \(4 B, .*\)"
done
wait_for "hlaunch: flight recorder \(SIGUSR1\): rank 2: ${state:+$state; }outside any collective, last completed allreduce #1 on comm 0"
# The job goes on after a dump: it is still running until we end it.
kill -0 "$pid" || { echo "FAIL: hlaunch ended after the dump"; cat "$out/log"; exit 1; }
kill -TERM "$pid"
wait "$pid"
echo "PASS: $mode"
cat "$out/log"
