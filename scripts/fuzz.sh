#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (build/fuzz) and runs each for a bounded time.
#   scripts/fuzz.sh [SECONDS]   (default 30 per target)
# Exits non-zero on a crash, a sanitizer report or a leak; the reproducer is left in
# build/fuzz/artifacts/. The seed corpus is fuzz/corpus/<target>; what the run discovers goes
# to build/fuzz/corpus/<target> (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
build=build/fuzz
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S fuzz -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" >/dev/null
cmake --build "$build"
mkdir -p "$build/artifacts"
for target in control_protocol; do
  mkdir -p "$build/corpus/$target"
  echo "fuzz: ${target}_fuzzer for ${seconds} s"
  # Refused requests log a warning each; silence them so the fuzzer runs at full speed.
  HALYARD_LOG=off "$build/${target}_fuzzer" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/" "$build/corpus/$target" "fuzz/corpus/$target" \
    2>"$build/$target.log" || { tail -n 60 "$build/$target.log"; exit 1; }
  grep -E "^(Done|stat::number_of_executed_units|stat::new_units_added)" "$build/$target.log" |
    sed "s/^/fuzz: $target: /"
done
