#!/usr/bin/env bash
# A rank dies (SIGKILL, abort, exit) in the middle of a 64 MiB allreduce on 4 ranks over 2
# emulated nodes (or before its part of a small one). Checks: hlaunch exits non-zero; every survivor's pending allreduce failed with
# an error naming the dead rank, and a later blocking call raised it, within 5 s of the death;
# hlaunch itself is done within 5 s of it; nothing of the job is left in /dev/shm.
#
#   kill_mid_collective.sh HLAUNCH PEER_FAILURE_CHECK MODE VICTIM [VNODES [small|gatherv]]
# (VNODES 1 with `small`: a 64-byte allreduce on one node, through the shm engine; `gatherv`:
# the same after a small gatherv to the dead victim.)
set -uo pipefail
hlaunch=$1
program=$2
mode=$3
victim=$4
vnodes=${5:-2}
size=${6:-}
ranks=4
limit_ms=5000
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# From inside $work: a crash handler on some machines writes a backtrace file (*.btr) into
# the working directory of a rank that aborts.
(cd "$work" && "$hlaunch" --oversubscribe --timeout 60 -n $ranks --vnodes "$vnodes" "$program" "$mode" "$victim" $size) \
  >"$work/out" 2>&1
status=$?
ended=$(date +%s%3N)

failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}
[[ $status -ne 0 ]] || fail "hlaunch exited 0"
died=$(sed -n "s/^victim $victim dies at \([0-9]*\) by $mode\$/\1/p" "$work/out")
if [[ -z "$died" ]]; then
  fail "the victim did not report its death"
else
  for ((r = 0; r < ranks; ++r)); do
    [[ $r -eq $victim ]] && continue
    line=$(grep -E "^rank $r failed at [0-9]+: peer failed: .*rank $victim( |\)|$)" "$work/out")
    if [[ -z "$line" ]]; then
      fail "rank $r did not report a peer failure naming rank $victim"
      continue
    fi
    at=$(sed -E 's/^rank [0-9]+ failed at ([0-9]+):.*/\1/' <<<"$line")
    delay=$((at - died))
    echo "rank $r saw the failure ${delay} ms after the death: ${line#*: }"
    ((delay <= limit_ms)) || fail "rank $r saw the failure after $delay ms (limit $limit_ms)"
    grep -qE "^rank $r blocking call raised: peer failed: .*rank $victim( |\)|$)" "$work/out" ||
      fail "rank $r: no blocking call raised the failure"
  done
  total=$((ended - died))
  echo "hlaunch exited $status, ${total} ms after the death"
  ((total <= limit_ms)) || fail "hlaunch ended $total ms after the death (limit $limit_ms)"
fi
job=$(sed -n 's/^job \(.*\)$/\1/p' "$work/out" | head -n 1)
if [[ -z "$job" ]]; then
  fail "no job id printed"
else
  left=$(ls -A /dev/shm | grep -F -e "$job" || true)
  [[ -z "$left" ]] || fail "left in /dev/shm: $left"
fi
if [[ $failed -ne 0 ]]; then
  echo "--- output:"
  cat "$work/out"
  exit 1
fi
echo "ok: $mode of rank $victim mid-allreduce"
