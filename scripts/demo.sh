#!/usr/bin/env bash
# Installs dependencies, builds Halyard in build/demo and runs a real job: hlaunch starts 4 ranks
# on 2 emulated nodes, each prints where it runs, then the ranks run collectives and print the
# results. This is the README's first command.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
build=build/demo
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHALYARD_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)"
echo "== hlaunch --oversubscribe -n 4 --vnodes 2 halyard_topology_example"
"$build/bin/hlaunch" --oversubscribe -n 4 --vnodes 2 --timeout 60 "$build/bin/halyard_topology_example"
echo
echo "== hlaunch --oversubscribe -n 4 --vnodes 2 halyard_collectives_demo"
"$build/bin/hlaunch" --oversubscribe -n 4 --vnodes 2 --timeout 120 "$build/bin/halyard_collectives_demo"
