#!/usr/bin/env bash
# kill -9 of hlaunch (issue 27): the ranks and every process they started end with the job.
#   killed_launcher_test.sh HLAUNCH MISBEHAVING_RANK
set -uo pipefail
hlaunch=$1 rank=$2
work=$(mktemp -d)
mkdir "$work/pids"
cleanup() {
  for f in "$work"/pids/*.pid; do [[ -e "$f" ]] && kill -9 "$(cat "$f")" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

# TMPDIR: the flight recorder's directory, which a killed hlaunch cannot remove, goes with $work.
TMPDIR="$work" HALYARD_TEST_PID_DIR="$work/pids" "$hlaunch" --timeout 30 -n 2 "$rank" spawn-child \
  >"$work/out" 2>&1 &
pid=$!
for _ in $(seq 1 200); do
  [[ $(grep -c "ready" "$work/out") == 2 && $(ls "$work/pids" | wc -l) == 4 ]] && break
  sleep 0.05
done
[[ $(ls "$work/pids" | wc -l) == 4 ]] || { echo "FAIL: the ranks did not start: $(cat "$work/out")"; exit 1; }
kill -9 "$pid"
wait "$pid" 2>/dev/null
alive() {
  local left=""
  for f in "$work"/pids/*.pid; do
    local p
    p=$(cat "$f")
    if [[ -e /proc/$p ]] && [[ $(cut -d' ' -f3 "/proc/$p/stat") != Z ]]; then
      left+=" $(basename "$f" .pid)"
    fi
  done
  echo "$left"
}
for _ in $(seq 1 40); do
  [[ -z "$(alive)" ]] && { echo "ok: ranks and their children ended"; exit 0; }
  sleep 0.05
done
echo "FAIL: still running 2 s after kill -9 of hlaunch:$(alive)"
exit 1
