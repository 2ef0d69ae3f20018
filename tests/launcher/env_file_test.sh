#!/usr/bin/env bash
# `hlaunch --serve-bootstrap --env-file PATH` (issue 27): the exports, token included, land in a
# file created with mode 0600 whatever the umask, and an existing file (or symlink) is refused
# rather than overwritten or followed.
#   env_file_test.sh HLAUNCH
set -uo pipefail
hlaunch=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}

umask 022
"$hlaunch" --serve-bootstrap -n 1 --bootstrap-address 127.0.0.1 --timeout 1 \
  --env-file "$work/job.env" >"$work/stdout" 2>"$work/stderr"
status=$?
[[ $status == 124 ]] || fail "serve-bootstrap exited $status, expected 124 (its --timeout)"
mode=$(stat -c %a "$work/job.env" 2>/dev/null)
[[ "$mode" == 600 ]] || fail "job.env has mode '$mode', expected 600"
grep -qE '^export HALYARD_JOB_TOKEN=[0-9a-f]{32}$' "$work/job.env" || fail "job.env has no token"
[[ ! -s "$work/stdout" ]] || fail "the exports also went to stdout"

ln -s "$work/elsewhere" "$work/link.env"
for target in job.env link.env; do
  "$hlaunch" --serve-bootstrap -n 1 --bootstrap-address 127.0.0.1 --timeout 1 \
    --env-file "$work/$target" >"$work/stdout" 2>"$work/stderr"
  status=$?
  [[ $status == 2 ]] || fail "an existing $target: exit $status, expected 2"
  grep -qFx "hlaunch: cannot create --env-file '$work/$target': File exists (it must not exist yet)" \
    "$work/stderr" || fail "an existing $target: no message naming it: $(cat "$work/stderr")"
done
[[ ! -e "$work/elsewhere" ]] || fail "the symlink was followed"

if [[ $failed -ne 0 ]]; then exit 1; fi
echo "ok: mode 600, existing files refused"
