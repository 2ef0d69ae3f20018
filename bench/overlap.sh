#!/usr/bin/env bash
# Overlap figures of issue 12 (docs/overlap.md): how much of a non-blocking alltoall/allgather
# hides behind computation, and what the paper's pipelined FFT transposes gain from it, for
#   halyard-off     Halyard (hmpicc build), no progress thread, no MPI call while computing
#   halyard-test    Halyard, no progress thread, 16 MPI_Test calls spread over the computation
#   halyard-thread  Halyard with HALYARD_PROGRESS_THREAD=1
#   ompi            Open MPI (libnbc) as installed, no MPI call while computing
#   ompi-test       Open MPI with the same 16 MPI_Test calls
# Same MPI source for all (bench/mpi_overlap.c, bench/mpi_fft_pipeline.c). Writes OUT/overlap.txt
# (every line of every run) and prints it.
#
#   bench/overlap.sh [--build DIR] [--out DIR] [-n RANKS] [--vnodes K] [--max-size B]
#                    [--iters N] [--fft-rows R] [--timeout S]
#     e.g. bench/overlap.sh --build build/test -n 2 --max-size 4M
#          bench/overlap.sh --build build/device -n 16 --max-size 4M   (the 16-core machine)
#
# Halyard runs under hlaunch (--vnodes K: ofi between K emulated nodes); Open MPI under
#   mpirun --allow-run-as-root --oversubscribe --bind-to none -n N --mca btl vader,self
# Ranks are not bound (--bind-to none for both): a progress thread needs a core besides its
# rank's, and binding would put both on one.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib_compare.sh"

build=build
out=""
ranks=2
vnodes=1
max_size=4M
iters=20
fft_rows=512
run_timeout=300
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -n) ranks=$2; shift 2 ;;
    --vnodes) vnodes=$2; shift 2 ;;
    --max-size) max_size=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    --fft-rows) fft_rows=$2; shift 2 ;;
    --timeout) run_timeout=$2; shift 2 ;;
    *) echo "overlap.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
out=${out:-$build/overlap}
bin="$build/bin"
require_built overlap.sh "$bin/hlaunch" "$bin/mpi_overlap_halyard" "$bin/mpi_fft_pipeline_halyard"
mkdir -p "$out"
report="$out/overlap.txt"
: >"$report"
have_ompi=0
if command -v mpirun >/dev/null && [[ -x "$bin/mpi_overlap_openmpi" ]]; then have_ompi=1; fi

halyard() { # LABEL THREAD(0|1) PROGRAM ARGS...
  local label=$1 thread=$2 program=$3
  shift 3
  timeout "$run_timeout" "$bin/hlaunch" --oversubscribe --bind-to none -n "$ranks" --vnodes "$vnodes" \
    -x HALYARD_PROGRESS_THREAD="$thread" -- "$bin/${program}_halyard" --label "$label" "$@"
}
ompi() { # LABEL PROGRAM ARGS...
  local label=$1 program=$2
  shift 2
  timeout "$run_timeout" mpirun --allow-run-as-root --oversubscribe --bind-to none -n "$ranks" \
    --mca btl vader,self "$bin/${program}_openmpi" --label "$label" "$@"
}

{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $ranks ranks, vnodes $vnodes," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD 2>/dev/null || echo ?)"
  for coll in alltoall allgather; do
    sizes=(--coll "$coll" --max-size "$max_size" --iters "$iters")
    halyard halyard-off 0 mpi_overlap "${sizes[@]}"
    halyard halyard-test 0 mpi_overlap "${sizes[@]}" --tests 16
    halyard halyard-thread 1 mpi_overlap "${sizes[@]}"
    if [[ $have_ompi == 1 ]]; then
      ompi ompi mpi_overlap "${sizes[@]}"
      ompi ompi-test mpi_overlap "${sizes[@]}" --tests 16
    fi
  done
  fft=(--rows "$fft_rows" --len 256 --vars 8 --reps 3)
  halyard halyard-off 0 mpi_fft_pipeline "${fft[@]}"
  halyard halyard-thread 1 mpi_fft_pipeline "${fft[@]}"
  [[ $have_ompi == 1 ]] && ompi ompi mpi_fft_pipeline "${fft[@]}"
} 2>&1 | tee "$report" | grep -v '^#' | cat
echo "overlap.sh: wrote $report"
