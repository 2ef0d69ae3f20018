#!/usr/bin/env bash
# One hbench job through hlaunch, then its CSV and JSON checked by hbench_output_check.
#   run_hbench.sh HLAUNCH HBENCH CHECKER RANKS "CHECKER ARGS" HBENCH ARGS...
set -euo pipefail
hlaunch=$1 hbench=$2 checker=$3 ranks=$4 check_args=$5
shift 5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$hlaunch" --oversubscribe --timeout 60 -n "$ranks" -- "$hbench" --quiet --csv "$work/out.csv" \
  --json "$work/out.json" "$@"
# shellcheck disable=SC2086 # the checker's arguments arrive as one word list
"$checker" --csv "$work/out.csv" --json "$work/out.json" --ranks "$ranks" $check_args
