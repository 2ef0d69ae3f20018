#!/usr/bin/env bash
# `hlaunch --serve-bootstrap` (issue 27): a rank that ends without finalizing, here one that is
# killed, fails the job: the service names it, tells the other ranks and exits 1 within 5 s.
#   serve_bootstrap_rank_lost.sh HLAUNCH MISBEHAVING_RANK
set -uo pipefail
hlaunch=$1 rank=$2
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

"$hlaunch" --serve-bootstrap -n 2 --bootstrap-address 127.0.0.1 --timeout 20 \
  --env-file "$work/job.env" 2>"$work/service.err" &
service=$!
pids+=("$service")
for _ in $(seq 1 100); do [[ -s "$work/job.env" ]] && break; sleep 0.05; done
# shellcheck disable=SC1091
. "$work/job.env"
for r in 0 1; do
  HALYARD_RANK=$r HALYARD_LOCAL_RANK=$r HALYARD_LOCAL_SIZE=2 HALYARD_NODE_ID=0 HALYARD_NUM_NODES=1 \
    "$rank" no-finalize 2 \
    >"$work/rank$r.out" 2>&1 &
  pids+=($!)
done
sleep 0.5  # both ranks connected and wait for the notice
kill -9 "${pids[2]}"  # rank 1
start=$(date +%s%N)
wait "$service"
status=$?
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
wait "${pids[1]}"

failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}
[[ $status == 1 ]] || fail "the service exited $status, expected 1"
((elapsed_ms <= 5000)) || fail "the service ended $elapsed_ms ms after the kill"
want="hlaunch: rank 1 exited without finalizing (its bootstrap connection closed)"
grep -qFx "$want" "$work/service.err" || fail "no line '$want'"
grep -qFx "rank 0 notified: rank 1 code 1: rank 1 exited without finalizing (its bootstrap connection closed)" \
  "$work/rank0.out" || fail "rank 0 was not notified"
if [[ $failed -ne 0 ]]; then
  echo "--- service:"; cat "$work/service.err"
  echo "--- rank 0:"; cat "$work/rank0.out"
  exit 1
fi
echo "ok: named and notified ${elapsed_ms} ms after the kill"
