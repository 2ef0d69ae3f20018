#!/usr/bin/env bash
# hlaunch whose stdout nobody reads (issue 27): a pipe that fills up must not freeze it.
# --timeout fires on time, SIGINT is handled on time, and the ranks are held back by their own
# pipes (back-pressure) instead of hlaunch queueing their output without bound.
#   stuck_reader_test.sh HLAUNCH MISBEHAVING_RANK
set -uo pipefail
hlaunch=$1 rank=$2
work=$(mktemp -d)
trap 'exec 3>&-; rm -rf "$work"' EXIT
mkfifo "$work/stuck"
exec 3<>"$work/stuck"  # read-write so that opening does not wait; nobody ever reads it
failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}

# 1. --timeout 2 while the ranks write 10 MB each into the full pipe.
start=$(date +%s%N)
timeout -k 5 30 "$hlaunch" --timeout 2 -n 2 "$rank" output 200000 >&3 2>"$work/timeout.err"
status=$?
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
[[ $status == 124 ]] || fail "--timeout 2: exit $status, expected 124"
((elapsed_ms < 8000)) || fail "--timeout 2 ended the job after $elapsed_ms ms"
grep -qE "^hlaunch: job timed out after 2 s; ranks still running: 0,1$" "$work/timeout.err" ||
  fail "no timeout line: $(cat "$work/timeout.err")"
echo "timeout: exit $status after $elapsed_ms ms"

# 2. SIGINT one second in.
timeout -k 5 30 "$hlaunch" -n 2 "$rank" output 200000 >&3 2>"$work/int.err" &
pid=$!
sleep 1
start=$(date +%s%N)
kill -INT "$pid"
wait "$pid"
status=$?
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
[[ $status == 130 ]] || fail "SIGINT: exit $status, expected 130"
((elapsed_ms < 6000)) || fail "SIGINT ended the job after $elapsed_ms ms"
echo "sigint: exit $status after $elapsed_ms ms"

if [[ $failed -ne 0 ]]; then exit 1; fi
echo "ok"
