#!/bin/bash
# A job across three "hosts": network namespaces joined by veth pairs to a bridge, each with its
# own address in 10.213.0.0/24 (which exists only inside these namespaces). hlaunch runs in the
# first one and reaches the others through HALYARD_RSH, a wrapper around `ip netns exec`.
#
#   netns_job_test.sh HLAUNCH HAN_CHECK MISBEHAVING_RANK
#
# Checks: HAN bcast/reduce/allreduce/allgather results (han_check compares every element), that
# every rank's ofi endpoint is libfabric's tcp provider on the namespace's veth interface, that
# megabytes crossed every veth, and that a remote rank's failure ends the job with its status.
# Needs root and `ip netns`; exits 77 (skipped) without them. The namespaces are removed on any
# exit.
set -u
hlaunch=$1 han_check=$2 misbehaving=$3

skip() {
  echo "SKIPPED: $*"
  exit 77
}
[ "$(id -u)" = 0 ] || skip "needs root to create network namespaces"
command -v ip >/dev/null || skip "the ip command (iproute2) is not installed"
ip netns list >/dev/null 2>&1 || skip "ip netns is unavailable here"

# Namespaces of an earlier run that was killed before its trap ran (its pid is gone).
for ns in $(ip netns list | awk '{print $1}' | grep -E '^hlmh[0-9]+(a|b|c|br)$'); do
  pid=${ns#hlmh}
  pid=${pid%%[a-z]*}
  kill -0 "$pid" 2>/dev/null || ip netns del "$ns"
done

tag="hlmh$$"
bridge_ns="${tag}br"
hosts=("${tag}a" "${tag}b" "${tag}c")
work=$(mktemp -d)
cleanup() {
  for ns in "${hosts[@]}" "$bridge_ns"; do ip netns del "$ns" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() {
  echo "FAILED: $*"
  exit 1
}

# The bridge lives in a namespace of its own: nothing of this test touches the host's network.
ip netns add "$bridge_ns" || skip "cannot create network namespaces (ip netns add failed)"
ip -n "$bridge_ns" link add br0 type bridge || fail "cannot create the bridge"
ip -n "$bridge_ns" link set br0 up
for i in 0 1 2; do
  ns=${hosts[$i]}
  ip netns add "$ns" || fail "cannot create namespace $ns"
  ip -n "$ns" link add eth0 type veth peer name "port$i" netns "$bridge_ns" ||
    fail "cannot create the veth pair of $ns"
  ip -n "$bridge_ns" link set "port$i" master br0 up
  ip -n "$ns" addr add "10.213.0.$((i + 1))/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" link set lo up
done

cat >"$work/rsh" <<'RSH'
#!/bin/sh
# HALYARD_RSH for this test: "host" is a namespace.
host=$1
shift
exec ip netns exec "$host" "$@"
RSH
chmod +x "$work/rsh"
export HALYARD_RSH="$work/rsh"

veth_bytes() { # NS DIRECTION -> bytes through its eth0
  ip netns exec "$1" cat "/sys/class/net/eth0/statistics/$2_bytes"
}
declare -A before
for ns in "${hosts[@]}"; do
  for dir in tx rx; do before[$ns.$dir]=$(veth_bytes "$ns" "$dir"); done
done

# 6 ranks, 2 per namespace; HALYARD_LOG=debug makes each rank name its ofi provider and domain.
host_list="${hosts[0]}:2,${hosts[1]}:2,${hosts[2]}:2"
start=$(date +%s.%N)
ip netns exec "${hosts[0]}" env HALYARD_LOG=debug "$hlaunch" --timeout 100 --host "$host_list" --tag-output \
  -x HALYARD_BCAST_ALG=han -x HALYARD_ALLREDUCE_ALG=han -x HALYARD_REDUCE_ALG=han \
  -x HALYARD_ALLGATHER_ALG=han "$han_check" >"$work/out" 2>&1
status=$?
end=$(date +%s.%N)
grep -v ' debug: ' "$work/out" | tail -n 30
[ "$status" = 0 ] || fail "the HAN job exited with status $status"
echo "HAN job across 3 namespaces: $(echo "$end - $start" | bc) s"

for rank in 0 1 2 3 4 5; do
  grep -Eq "^\[$rank\] .*ofi: provider tcp;ofi_rxm domain eth0 " "$work/out" ||
    fail "rank $rank did not report an ofi endpoint on tcp;ofi_rxm over eth0 (its veth)"
done
# Each rank's bootstrap connection came from its own namespace's address.
for i in 0 1 2; do
  grep -q "connected from 10.213.0.$((i + 1)):" "$work/out" ||
    fail "no rank connected to the bootstrap server from 10.213.0.$((i + 1))"
done
# han_check moves 3 MiB messages between every pair of nodes; the control plane alone moves
# kilobytes, so megabytes on every veth can only be ofi data.
for ns in "${hosts[@]}"; do
  for dir in tx rx; do
    moved=$(($(veth_bytes "$ns" "$dir") - ${before[$ns.$dir]}))
    echo "$ns eth0 $dir: $moved bytes"
    [ "$moved" -gt 3145728 ] || fail "only $moved bytes went $dir through the veth of $ns"
  done
done

# A rank on the third host fails: the job ends with its status, the other ranks are ended.
ip netns exec "${hosts[0]}" "$hlaunch" --timeout 30 --host "$host_list" \
  "$misbehaving" exit 5 3 >"$work/fail" 2>&1
status=$?
cat "$work/fail"
[ "$status" = 3 ] || fail "a failing remote rank gave exit status $status, expected 3"
grep -qx "hlaunch: rank 5 exited with status 3" "$work/fail" ||
  fail "no 'hlaunch: rank 5 exited with status 3' line"
echo "PASSED"
