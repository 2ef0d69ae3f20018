#!/usr/bin/env bash
# Installs dependencies, builds Halyard from scratch in build/test and runs every test.
# This is the README's test command and exactly what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
build=${HALYARD_TEST_BUILD_DIR:-build/test}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build" -j "$(nproc)"
# Multi-rank tests oversubscribe small machines: run them one at a time.
ctest --test-dir "$build" --output-on-failure --timeout 300
