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
  mpich libmpich-dev  # second benchmark peer (bench/compare.sh), called as mpicc.mpich/mpirun.mpich
  clang-format procps
  python3  # scripts/check_layers.py, the layering test (tests/layers)
  clang  # libFuzzer targets (fuzz/, scripts/fuzz.sh)
  gnuplot-nox  # benchmark plots (bench/*.sh write PNGs when it is there)
  slurm-wlm munge iproute2  # tests/slurm (a private Slurm) and the network-namespace job test
  python3-dev pybind11-dev python3-pybind11 python3-numpy  # the Python module (python/, tests/python)
  python3-torch libtorch-dev  # the torch.distributed backend (python/torch_backend; libtorch-dev: its C++ headers)
)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    echo "install-deps: not root and no sudo to run: $*" >&2
    exit 1
  fi
}

# With MPICH installed beside Open MPI, mpicc, mpirun and mpi.h must stay Open MPI's: CMake's
# find_package(MPI) builds the Open MPI peers from mpicc, and the scripts run them with mpirun.
# Debian ranks Open MPI first (priority 50 against MPICH's 40), so this changes nothing unless
# someone chose MPICH by hand; then it puts each of those alternatives back on Open MPI.
pin_open_mpi() {
  local group mode value choice
  while read -r group mode value; do
    [[ $value == *openmpi* ]] && continue
    choice=$(update-alternatives --list "$group" | grep -m 1 openmpi) || continue
    echo "install-deps: $group pointed to $value ($mode); setting it to $choice"
    as_root update-alternatives --set "$group" "$choice" >/dev/null
  done < <(update-alternatives --get-selections | awk '$1 ~ /^mpi/')
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "install-deps: done"
fi
pin_open_mpi
