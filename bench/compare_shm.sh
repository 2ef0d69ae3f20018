#!/usr/bin/env bash
# Ping-pong latency and bandwidth of Halyard's shm transport next to Open MPI's vader BTL: same
# sizes and schedule, same machine, one run after the other, and the ratios per size.
#
#   bench/compare_shm.sh [BUILD_DIR] [benchmark args...]   e.g. bench/compare_shm.sh build --trials 5
#
# "lat x" is Halyard's latency divided by Open MPI's, "bw x" Halyard's bandwidth divided by Open
# MPI's. Goals (issue 4): lat x <= 1.0 at 8 B, bw x >= 1.0 from 1 MiB up.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib_compare.sh"

build=${1:-build}
shift || true
bin="$build/bin"
require_built compare_shm.sh "$bin/hlaunch" "$bin/halyard_bench_shm" "$bin/mpi_pingpong"
make_result_files

# Both pin their two ranks to cores 0 and 1.
"$bin/hlaunch" -n 2 --bind-to core -- "$bin/halyard_bench_shm" p2p "$@" >"$halyard"
mpirun --allow-run-as-root --oversubscribe -n 2 --bind-to core --mca btl vader,self --mca pml ob1 \
  "$bin/mpi_pingpong" "$@" >"$openmpi"

echo "# $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), $(nproc) cores, $(uname -r)"
print_sources
awk '
  FNR == NR { if ($1 !~ /^#/) { lat[$1] = $2; bw[$1] = $3 } next }
  $1 !~ /^#/ && ($1 in lat) {
    if (!header++) printf "%12s %12s %12s %7s %14s %14s %7s\n", "# size(B)", "halyard(us)", "openmpi(us)", "lat x", "halyard(MB/s)", "openmpi(MB/s)", "bw x"
    printf "%12s %12.3f %12.3f %7.2f %14.2f %14.2f %7.2f\n", $1, lat[$1], $2, lat[$1] / $2, bw[$1], $3, bw[$1] / $3
    if ($1 == 8) lat8 = lat[$1] / $2
    if ($1 >= 1048576 && (minbw == "" || bw[$1] / $3 < minbw)) minbw = bw[$1] / $3
  }
  END { printf "# 8 B latency ratio (halyard / openmpi): %.2f; lowest bandwidth ratio >= 1 MiB (halyard / openmpi): %.2f\n", lat8, minbw }
' "$halyard" "$openmpi"
