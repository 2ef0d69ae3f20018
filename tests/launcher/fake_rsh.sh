#!/bin/sh
# HALYARD_RSH for job tests on one machine: called as `fake_rsh.sh HOST COMMAND...`, runs
# COMMAND here. The host "unreachable" fails as ssh does when it cannot connect, after two seconds
# (so the other hosts' ranks are up and the test sees them ended).
host=$1
shift
if [ "$host" = unreachable ]; then
  sleep 2
  echo "ssh: connect to host unreachable port 22: No route to host" >&2
  exit 255
fi
exec "$@"
