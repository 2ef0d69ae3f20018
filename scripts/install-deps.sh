#!/usr/bin/env bash
# Installs every Debian package Halyard's build, tests and benchmarks need.
# Idempotent: packages already present are skipped, so a second run costs seconds.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libfabric-dev libfabric-bin libhwloc-dev hwloc
  libboost-dev libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev libcli11-dev nlohmann-json3-dev
  openmpi-bin libopenmpi-dev  # benchmark peer only; nothing in Halyard runs on MPI
  clang-format procps
  python3  # scripts/check_layers.py, the layering test (tests/layers)
  clang  # libFuzzer targets (fuzz/, scripts/fuzz.sh)
  gnuplot-nox  # benchmark plots (bench/*.sh write PNGs when it is there)
  slurm-wlm munge iproute2  # tests/slurm (a private Slurm) and the network-namespace job test
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: not root and no sudo; install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
