#!/usr/bin/env bash
# Issue 28's goal for the Python module: a 4-byte numpy allreduce at most 2 us over the C++ call,
# 2 ranks. Alternates bench/python_overhead.py and hbench (the C++ API, the same call) round
# after round and prints both with their difference.
#   bench/python_overhead.sh BUILD_DIR [ROUNDS]      e.g. bench/python_overhead.sh build/dev 3
set -euo pipefail
build=${1:?usage: python_overhead.sh BUILD_DIR [ROUNDS]}
rounds=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
for ((r = 1; r <= rounds; ++r)); do
  py=$(PYTHONPATH="$build/python" "$build/bin/hlaunch" -n 2 /usr/bin/python3 \
    "$here/python_overhead.py" --rounds 3 | sed -n 's/.*median \([0-9.]*\) us.*/\1/p')
  cpp=$("$build/bin/hlaunch" -n 2 "$build/bin/hbench" --coll allreduce --min-size 4 \
    --max-size 4 --iterations 300000 --warmup 30000 | awk '$1 == 4 {print $4}')
  awk -v r="$r" -v py="$py" -v cpp="$cpp" 'BEGIN {
    printf "round %d: python %.3f us, C++ %.3f us, python - C++ = %.3f us\n", r, py, cpp, py - cpp }'
done
