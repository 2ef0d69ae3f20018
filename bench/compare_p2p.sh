#!/usr/bin/env bash
# Ping-pong latency and bandwidth of Halyard (ofi over tcp;ofi_rxm) next to Open MPI's TCP path,
# same sizes, same machine, one run after the other, and the ratio per size.
#
#   bench/compare_p2p.sh [BUILD_DIR] [benchmark args...]     e.g. bench/compare_p2p.sh build --trials 5
#
# Halyard runs under hlaunch with HALYARD_SHM=0, so both ranks talk through the ofi transport;
# Open MPI runs with the ob1 PML and the tcp BTL only. "lat x" is Halyard's latency divided by
# Open MPI's and "bw x" Open MPI's bandwidth divided by Halyard's: above 1 means Halyard is
# slower (the goal is at most 1.2 at every size).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib_compare.sh"

build=${1:-build}
shift || true
bin="$build/bin"
require_built compare_p2p.sh "$bin/hlaunch" "$bin/halyard_bench_p2p" "$bin/mpi_pingpong"
make_result_files

HALYARD_SHM=0 HALYARD_OFI_PROVIDER="${HALYARD_OFI_PROVIDER:-tcp;ofi_rxm}" \
  "$bin/hlaunch" -n 2 -- "$bin/halyard_bench_p2p" "$@" >"$halyard"
mpirun --allow-run-as-root --oversubscribe -n 2 --mca btl tcp,self --mca pml ob1 \
  "$bin/mpi_pingpong" "$@" >"$openmpi"

echo "# $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), $(nproc) cores"
print_sources
awk '
  FNR == NR { if ($1 !~ /^#/) { lat[$1] = $2; bw[$1] = $3 } next }
  $1 !~ /^#/ && ($1 in lat) {
    if (!header++) printf "%12s %12s %12s %7s %14s %14s %7s\n", "# size(B)", "halyard(us)", "openmpi(us)", "lat x", "halyard(MB/s)", "openmpi(MB/s)", "bw x"
    printf "%12s %12.2f %12.2f %7.2f %14.2f %14.2f %7.2f\n", $1, lat[$1], $2, lat[$1] / $2, bw[$1], $3, $3 / bw[$1]
    if (lat[$1] / $2 > worst) worst = lat[$1] / $2
  }
  END { printf "# worst latency ratio (halyard / openmpi): %.2f\n", worst }
' "$halyard" "$openmpi"
