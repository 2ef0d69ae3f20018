#!/usr/bin/env bash
# One-shot benchmark session on the 16-core GPU machine lent by the `device` tool: builds Halyard
# there (that machine has the libfabric runtime but no headers: they travel in .device/include)
# and runs, side by side with Open MPI, the figures recorded in docs/benchmarks.md. Every run has
# its own time limit so one slow part cannot eat the others. Results go to $OUT (or out/).
#
#   bench/device_run.sh            (from the repository root, on the device machine)
#
# Before sending the tree there, copy the headers from this machine's libfabric-dev into the
# ignored folder the device tool carries:
#   mkdir -p .device/include/rdma && cp /usr/include/rdma/fabric.h /usr/include/rdma/fi_*.h .device/include/rdma/
# and run with carry [".device"].
set -uo pipefail
out=${OUT:-out}
mkdir -p "$out"
build=build/device
log() { echo "== $*" | tee -a "$out/summary.txt"; }

log "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHALYARD_BUILD_TESTS=OFF \
  -DHALYARD_CUDA=OFF -DHALYARD_WERROR=OFF -DHALYARD_LIBFABRIC_INCLUDE="$PWD/.device/include" >"$out/cmake.log" 2>&1 &&
  cmake --build "$build" -j "$(nproc)" >"$out/build.log" 2>&1 || { log "build failed"; tail -30 "$out/build.log"; exit 1; }
log "built in ${SECONDS}s"

n=${RANKS:-16}
log "MPI collectives, $n ranks, Halyard (hmpicc) vs Open MPI (vader)"
timeout 180 bench/compare_mpi_collectives.sh --build "$build" --out "$out/collectives_$n" -n "$n" \
  --max-size 16M --scale 0.3 >"$out/collectives_$n.txt" 2>&1; log "rc=$?"

log "ADAPT noise: 4 MiB binary-tree bcast, 1 ms on rank 6, $n ranks"
for variant in event waitall; do
  timeout 25 "$build/bin/hlaunch" -n "$n" -- "$build/bin/halyard_bench_adapt_noise" --coll bcast \
    --size 4M --tree binary --variant "$variant" --delay-ms 1 --delay-ranks 6 \
    >"$out/noise_bcast_$variant.txt" 2>&1; log "$variant rc=$?"
  timeout 25 "$build/bin/hlaunch" -n "$n" -- "$build/bin/halyard_bench_adapt_noise" --coll bcast \
    --size 4M --tree binary --variant "$variant" \
    >"$out/quiet_bcast_$variant.txt" 2>&1; log "$variant (no delay) rc=$?"
done

log "p2p over shm vs vader"
timeout 45 bench/compare_shm.sh "$build" >"$out/p2p_shm.txt" 2>&1; log "rc=$?"
log "p2p over ofi (tcp;ofi_rxm) vs Open MPI tcp"
timeout 60 bench/compare_p2p.sh "$build" >"$out/p2p_ofi.txt" 2>&1; log "rc=$?"
log "done in ${SECONDS}s"
