#!/bin/sh
# tuning_agreement_job.sh HLAUNCH CHECK SOURCE_DIR DIR (issue 27, item 9): jobs whose ranks are
# given different tuning files must still choose alike. Rank 0 reads and shares the file, so
#  1. a table rank 1 cannot read: both ranks take rank 0's table (adapt:chain for every size);
#  2. a table rank 0 cannot read: both keep the built-in rules, one error names the file;
#  3. a malformed table: the same, one error naming the file and the problem.
set -eu
hlaunch=$1 check=$2 source=$3 dir=$4
mkdir -p "$dir"
table=$source/agreement_table.json
fail() { echo "FAIL: $*"; cat "$dir/out"; exit 1; }
# Runs the check on 2 ranks, HALYARD_TUNING_FILE=$1 on rank 0 and $2 on rank 1.
run() {
  "$hlaunch" --timeout 20 -n 2 sh -c \
    'if [ "$HALYARD_RANK" = 0 ]; then f=$0; else f=$1; fi; HALYARD_TUNING_FILE=$f exec "$2"' \
    "$1" "$2" "$check" >"$dir/out" 2>&1 || fail "the ranks chose differently ($1, $2)"
}

run "$table" /nonexistent/table.json
grep -q "rank 0 chose 8 B: adapt:chain; 4096 B: adapt:chain; 1048576 B: adapt:chain" "$dir/out" ||
  fail "rank 0 did not take its table"
grep -q "error" "$dir/out" && fail "an error although rank 0 read the table"

run /nonexistent/table.json "$table"
grep -q "adapt:chain" "$dir/out" && fail "a rank took the table rank 0 could not read"
test "$(grep -c "tuning file '/nonexistent/table.json': cannot be read: No such file or directory; the built-in rules stay in force" "$dir/out")" = 1 ||
  fail "not exactly one error naming the file"

printf '{"format": "halyard-tuning-1", "entries": [{"collective": "bcast", "nodes": 4294967297}]}' \
  >"$dir/bad.json"
run "$dir/bad.json" "$dir/bad.json"
test "$(grep -c "tuning file '$dir/bad.json': entries\[0\].nodes: 4294967297 is out of range" "$dir/out")" = 1 ||
  fail "not exactly one error naming the malformed file"
echo "tuning agreement: all three jobs agree"
