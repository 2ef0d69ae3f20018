#!/usr/bin/env bash
# Runs one command (an hlaunch job) and checks its exit status and output.
#
#   expect_job.sh [checks...] -- COMMAND [ARGS...]
#     --exit N          the command must exit with status N (required)
#     --line TEXT       some output line (stdout or stderr) must be exactly TEXT
#     --match REGEX     some output line must match the extended REGEX entirely
#     --no-match REGEX  no output line may match the extended REGEX entirely
#     --count REGEX N   exactly N stdout lines must match REGEX entirely
#     --every REGEX     every stdout line must match REGEX entirely
#     --no-survivors    give the ranks HALYARD_TEST_PID_DIR and check that none of them is
#                       still alive once the command returned
#     --signal SIG TEXT send SIG to the command once its output has a line TEXT, N times
#                       where N is given by --signal-count (default 1 line needed)
#     --signal-count N  how many lines equal to TEXT must appear before signalling
set -uo pipefail

want_exit=""
lines=()
matches=()
no_matches=()
counts=()
every=""
no_survivors=0
signal=""
signal_text=""
signal_count=1
while [[ $# -gt 0 && "$1" != "--" ]]; do
  case "$1" in
    --exit) want_exit=$2; shift 2 ;;
    --line) lines+=("$2"); shift 2 ;;
    --match) matches+=("$2"); shift 2 ;;
    --no-match) no_matches+=("$2"); shift 2 ;;
    --count) counts+=("$2" "$3"); shift 3 ;;
    --every) every=$2; shift 2 ;;
    --no-survivors) no_survivors=1; shift ;;
    --signal) signal=$2; signal_text=$3; shift 3 ;;
    --signal-count) signal_count=$2; shift 2 ;;
    *) echo "expect_job.sh: unknown check '$1'" >&2; exit 2 ;;
  esac
done
[[ $# -gt 0 ]] && shift
if [[ -z "$want_exit" || $# -eq 0 ]]; then
  echo "usage: expect_job.sh --exit N [checks...] -- COMMAND [ARGS...]" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ $no_survivors -eq 1 ]]; then
  mkdir "$work/pids"
  export HALYARD_TEST_PID_DIR="$work/pids"
fi

"$@" >"$work/stdout" 2>"$work/stderr" &
pid=$!
if [[ -n "$signal" ]]; then
  # Waits for the ranks to say they are ready; the test's own ctest TIMEOUT bounds this loop.
  until [[ $(grep -cFx -- "$signal_text" "$work/stdout" "$work/stderr" | awk -F: '{s+=$NF} END {print s+0}') -ge $signal_count ]]; do
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.05
  done
  kill -s "$signal" "$pid"
fi
wait "$pid"
status=$?

failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}
cat "$work/stdout" "$work/stderr" >"$work/all"
[[ "$status" == "$want_exit" ]] || fail "exit status $status, expected $want_exit"
for l in "${lines[@]+"${lines[@]}"}"; do
  grep -qFx -- "$l" "$work/all" || fail "no output line '$l'"
done
for m in "${matches[@]+"${matches[@]}"}"; do
  grep -qEx -- "$m" "$work/all" || fail "no output line matching '$m'"
done
for m in "${no_matches[@]+"${no_matches[@]}"}"; do
  if grep -qEx -- "$m" "$work/all"; then fail "an output line matches '$m'"; fi
done
for ((i = 0; i < ${#counts[@]}; i += 2)); do
  n=$(grep -cEx -- "${counts[i]}" "$work/stdout")
  [[ "$n" == "${counts[i + 1]}" ]] || fail "$n stdout lines match '${counts[i]}', expected ${counts[i + 1]}"
done
if [[ -n "$every" ]]; then
  bad=$(grep -cvEx -- "$every" "$work/stdout")
  [[ "$bad" == 0 ]] || fail "$bad stdout lines do not match '$every'"
fi
if [[ $no_survivors -eq 1 ]]; then
  n=$(ls "$work/pids" | wc -l)
  [[ "$n" -gt 0 ]] || fail "no rank recorded its pid"
  for f in "$work/pids"/*.pid; do
    [[ -e "$f" ]] || continue
    p=$(cat "$f")
    if [[ -e "/proc/$p" ]] && tr '\0' ' ' <"/proc/$p/cmdline" | grep -q misbehaving_rank; then
      fail "rank $(basename "$f" .pid) (pid $p) outlived the job: $(cut -d' ' -f3 /proc/$p/stat)"
      kill -9 "$p" 2>/dev/null
    fi
  done
fi
if [[ $failed -ne 0 ]]; then
  echo "--- command: $*"
  echo "--- stdout:"
  cat "$work/stdout"
  echo "--- stderr:"
  cat "$work/stderr"
  exit 1
fi
echo "ok: exit $status"
