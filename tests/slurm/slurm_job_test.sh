#!/bin/bash
# hlaunch inside a real Slurm: installs Debian's slurm-wlm and munge when missing, starts munged,
# slurmctld and slurmd on this machine (one node, everything on 127.0.0.1, a private config
# under a temporary directory named by SLURM_CONF), runs jobs and stops the daemons again.
#
#   slurm_job_test.sh [--no-install] HLAUNCH KV_EXCHANGE_RANK PLACEMENT_RANK MISBEHAVING_RANK
#
# --no-install (what ctest passes): skip rather than install the packages when they are missing.
# Jobs: hlaunch inside salloc (agents through srun, hosts and slots from SLURM_JOB_NODELIST and
# SLURM_TASKS_PER_NODE), a failing rank's exit status through salloc, and ranks started by srun
# directly next to `hlaunch --serve-bootstrap`. Needs root; exits 77 (skipped) without it or
# without the packages. Prints how long it took.
set -u
install=1
if [ "${1:-}" = --no-install ]; then
  install=0
  shift
fi
hlaunch=$1 kv_rank=$2 placement_rank=$3 misbehaving=$4
started=$(date +%s.%N)

skip() {
  echo "SKIPPED: $*"
  exit 77
}
fail() {
  echo "FAILED: $*"
  for log in "$work"/*.log; do
    [ -f "$log" ] && {
      echo "--- $log"
      tail -n 20 "$log"
    }
  done
  exit 1
}
[ "$(id -u)" = 0 ] || skip "needs root to run slurmctld, slurmd and munged"
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  [ "$install" = 1 ] || skip "slurm-wlm and munge are not installed (run this script by hand to install them)"
  command -v apt-get >/dev/null || skip "slurm-wlm and munge are missing and apt-get is not here"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge \
    >/dev/null || skip "cannot install slurm-wlm and munge"
fi

work=$(mktemp -d /tmp/halyard-slurm.XXXXXX)
chmod 755 "$work"
export SLURM_CONF="$work/slurm.conf"
host=$(hostname -s)
# Stops the daemons this run started (by their pid files) and waits until they are gone, so
# that nothing (munged writes its seed file on exit) lands in $work after it is removed.
stop_daemons() {
  local pids=""
  for pidfile in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munged.pid"; do
    [ -f "$pidfile" ] && pids="$pids $(cat "$pidfile")"
  done
  [ -n "$pids" ] && kill $pids 2>/dev/null
  for _ in $(seq 1 50); do
    kill -0 $pids 2>/dev/null || break
    sleep 0.1
  done
  rm -rf "$work"
}
cleanup() {
  scontrol shutdown >/dev/null 2>&1
  stop_daemons
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# Should this script be killed outright (a ctest timeout), the trap never runs: a watchdog stops
# the daemons once the script is gone. After a normal exit the pid files are gone with $work.
(
  trap '' INT TERM HUP
  while kill -0 $$ 2>/dev/null; do sleep 1; done
  [ -d "$work" ] && stop_daemons
) >/dev/null 2>&1 &

# A munged of this run's own (key, socket, log in $work), so that runs side by side never share
# or stop each other's daemons. It runs as root (--force): containers often keep /dev/null from
# the munge user.
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 600 "$work/munge.key"
munged --force --key-file="$work/munge.key" --socket="$work/munge.socket" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munged.seed" \
  2>>"$work/munged.log" || fail "munged did not start"
munge -n --socket="$work/munge.socket" >/dev/null || fail "munge does not work"

# Two free ports for slurmctld and slurmd.
free_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 40000))
    ss -Htln "sport = :$port" | grep -q . || { echo "$port"; return; }
  done
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
[ "$ctld_port" != "$slurmd_port" ] || slurmd_port=$((ctld_port + 1))

mkdir -p "$work/state" "$work/spool"
cat >"$SLURM_CONF" <<CONF
ClusterName=halyard
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=10 State=UP
CONF

slurmctld -c -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
for _ in $(seq 1 100); do
  [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
  sleep 0.2
done
[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] || fail "the node did not come up: $(sinfo 2>&1)"
daemons_up=$(date +%s.%N)

# 1. hlaunch inside an allocation of 4 tasks: 4 ranks, one node, placement from Slurm.
salloc -n 4 --time=2 "$hlaunch" --timeout 60 --tag-output --bind-to none "$placement_rank" \
  1 unbound 0:0:4 0:1:4 0:2:4 0:3:4 >"$work/placement.out" 2>&1
status=$?
cat "$work/placement.out"
[ "$status" = 0 ] || fail "hlaunch inside salloc (placement) exited $status"
[ "$(grep -cE '^\[[0-3]\] rank [0-3]: node 0 local [0-3]/4 core unbound$' "$work/placement.out")" = 4 ] ||
  fail "not every rank reported its Slurm placement"

salloc -n 4 --time=2 "$hlaunch" --timeout 60 "$kv_rank" >"$work/kv.out" 2>&1
status=$?
cat "$work/kv.out"
[ "$status" = 0 ] || fail "hlaunch inside salloc (key-value exchange) exited $status"
[ "$(grep -cE '^rank [0-3] of 4: checked 16 values$' "$work/kv.out")" = 4 ] ||
  fail "not every rank checked its values"

# Slurm's binding: the node's step gets 2 CPUs from Slurm and both ranks keep that CPU set, so
# neither is bound to a single core (the topology row says -1).
salloc -n 2 --time=2 "$hlaunch" --timeout 60 --bind-to slurm "$placement_rank" \
  1 unbound 0:0:2 0:1:2 >"$work/bind.out" 2>&1
status=$?
cat "$work/bind.out"
[ "$status" = 0 ] || fail "hlaunch --bind-to slurm exited $status"

# 2. A failing rank: hlaunch reports it and salloc passes hlaunch's status on.
salloc -n 2 --time=2 "$hlaunch" --timeout 60 "$misbehaving" exit 1 3 >"$work/fail.out" 2>&1
status=$?
cat "$work/fail.out"
[ "$status" = 3 ] || fail "a failing rank under Slurm gave exit status $status, expected 3"
grep -qx "hlaunch: rank 1 exited with status 3" "$work/fail.out" || fail "no failure line"

# 3. srun starts the ranks; hlaunch only serves the bootstrap.
salloc -n 2 --time=2 bash -c '
  "$0" --serve-bootstrap -n 2 --bootstrap-address 127.0.0.1 --timeout 60 >"$2/exports" &
  server=$!
  for _ in $(seq 1 50); do [ "$(wc -l <"$2/exports")" = 4 ] && break; sleep 0.1; done
  . "$2/exports"
  srun -n 2 "$1"
  status=$?
  kill "$server"
  wait "$server"
  exit $status' "$hlaunch" "$kv_rank" "$work" >"$work/srun.out" 2>&1
status=$?
cat "$work/srun.out"
[ "$status" = 0 ] || fail "ranks started by srun exited $status"
[ "$(grep -cE '^rank [0-1] of 2: checked 8 values$' "$work/srun.out")" = 2 ] ||
  fail "not every srun-started rank checked its values"

finished=$(date +%s.%N)
echo "daemons up in $(echo "$daemons_up - $started" | bc) s; jobs took $(echo "$finished - $daemons_up" | bc) s"
echo "PASSED"
