#!/usr/bin/env bash
# Checks that a job leaves nothing in /dev/shm, when it ends normally and when a rank is
# SIGKILLed mid-job (the shm segment is a memfd, so there should never be anything to leave).
#
#   dev_shm_clean.sh HLAUNCH SHM_DATA_PATH
set -uo pipefail
hlaunch=$1
program=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ls -A /dev/shm | sort >"$work/before"
status=0

run() {  # run NAME EXPECTED_EXIT ARGS...
  local name=$1 want=$2
  shift 2
  "$hlaunch" --timeout 60 --oversubscribe "$@" >"$work/$name.out" 2>&1
  local got=$?
  if [[ $got -ne $want ]]; then
    echo "dev_shm_clean: $name exited $got, expected $want:" >&2
    cat "$work/$name.out" >&2
    status=1
  fi
  local job
  job=$(sed -n 's/^job \(.*\)$/\1/p' "$work/$name.out" | head -n 1)
  if [[ -z "$job" ]]; then
    echo "dev_shm_clean: $name printed no job id" >&2
    status=1
    return
  fi
  local left
  left=$(ls -A /dev/shm | grep -F -e "$job" -e halyard || true)
  if [[ -n "$left" ]]; then
    echo "dev_shm_clean: $name (job $job) left in /dev/shm: $left" >&2
    status=1
  fi
  echo "dev_shm_clean: $name (job $job): exit $got, nothing of it in /dev/shm"
}

run normal 0 -n 4 "$program" linger
run sigkill 137 -n 4 "$program" linger kill 1
run sigkill_creator 137 -n 4 "$program" linger kill 0

ls -A /dev/shm | sort >"$work/after"
new=$(comm -13 "$work/before" "$work/after")
[[ -n "$new" ]] && echo "dev_shm_clean: note: /dev/shm entries that appeared meanwhile (other jobs?): $new"
exit $status
