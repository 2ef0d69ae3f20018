#!/usr/bin/env bash
# One-shot benchmark session on the 16-core GPU machine lent by the `device` tool: builds Halyard
# there (that machine has the libfabric runtime but no headers: they travel in .device/include)
# and produces every figure of docs/benchmarks.md's device section. Every part has its own time
# limit so one slow part cannot eat the others. Results go to $OUT (or out/).
#
#   bench/device_run.sh [PART...]   (from the repository root, on the device machine)
#     PART: build compare noise hbench p2p overlap tune (default: all of them but overlap and
#     tune, in that order). The device tool allows 10 minutes a command; the parts' limits add up
#     to about 11 plus the build, so to be safe run `bench/device_run.sh build compare noise`,
#     then `bench/device_run.sh hbench p2p` on the same warm machine (the build folder stays),
#     `bench/device_run.sh overlap` (about 9 minutes at most) and `bench/device_run.sh tune`
#     (docs/tuning.md's 16-rank figures: htune --validate on 2 and 4 emulated nodes, about 8
#     minutes) as commands of their own.
#
# Before sending the tree there, copy the headers from this machine's libfabric-dev into the
# ignored folder the device tool carries:
#   mkdir -p .device/include/rdma && cp /usr/include/rdma/fabric.h /usr/include/rdma/fi_*.h .device/include/rdma/
# and run with carry [".device"].
set -uo pipefail
out=${OUT:-out}
mkdir -p "$out"
# RANKS, VNODES and BUILD change the defaults (e.g. to try the script on a small machine:
# RANKS=2 VNODES=1,2 BUILD=build/dev OUT=/tmp/run bench/device_run.sh compare noise hbench).
build=${BUILD:-build/device}
n=${RANKS:-16}
vnodes=${VNODES:-1,2,4}
parts=("$@")
[[ ${#parts[@]} -gt 0 ]] || parts=(build compare noise hbench p2p)
log() { echo "== $*" | tee -a "$out/summary.txt"; }
wanted() { [[ " ${parts[*]} " == *" $1 "* ]]; }

log "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), parts: ${parts[*]}"
if wanted build; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHALYARD_BUILD_TESTS=OFF \
    -DHALYARD_CUDA=OFF -DHALYARD_WERROR=OFF -DHALYARD_LIBFABRIC_INCLUDE="$PWD/.device/include" >"$out/cmake.log" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" >"$out/build.log" 2>&1 || { log "build failed"; tail -30 "$out/build.log"; exit 1; }
  log "built in ${SECONDS}s"
fi

if wanted compare; then
  # Halyard on 1, 2 and 4 emulated nodes (ofi between them) against Open MPI tuned/han/adapt on
  # one node (vader); the goals of issue 8 are read from this table.
  log "MPI collectives, $n ranks: Halyard (hmpicc, --vnodes $vnodes) vs Open MPI tuned/han/adapt"
  timeout 240 bench/compare.sh --build "$build" --out "$out/compare_$n" -n "$n" --vnodes "$vnodes" \
    --rounds 2 --max-size 16M --scale 0.3 >"$out/compare_$n.txt" 2>"$out/compare_$n.log"
  log "rc=$? ($(grep -c '<= 1.0x' "$out/compare_$n.txt" 2>/dev/null) summary lines)"
fi

if wanted noise; then
  log "ADAPT vs Waitall under noise (Figures 3.5, 3.6/3.7), $n ranks, 4 MiB"
  timeout 150 bench/noise_figures.sh --build "$build" --out "$out/noise_$n" -n "$n" \
    --noise-seconds 3 >"$out/noise_$n.txt" 2>"$out/noise_$n.log"
  log "rc=$?"
fi

if wanted hbench; then
  log "hbench, every benchmark, $n ranks, 1 B .. 4 MiB"
  timeout 100 "$build/bin/hlaunch" -n "$n" -- "$build/bin/hbench" --max-size 4M --scale 0.2 \
    --csv "$out/hbench_$n.csv" --json "$out/hbench_$n.json" >"$out/hbench_$n.txt" 2>"$out/hbench_$n.log"
  log "rc=$?"
fi

if wanted overlap; then
  # Issue 12: overlap of ialltoall/iallgather with computation and the pipelined FFT kernel,
  # Halyard without and with its progress thread against Open MPI (libnbc); docs/overlap.md.
  # 8 ranks leave a core per rank for a progress thread; 16 ranks oversubscribe with it.
  for ranks in 8 16; do
    log "overlap, $ranks ranks, 1 KiB .. 4 MiB per peer, and the FFT pipeline"
    timeout 280 bench/overlap.sh --build "$build" --out "$out/overlap_$ranks" -n "$ranks" \
      --max-size 4M --iters 10 --fft-rows 1024 >"$out/overlap_$ranks.txt" 2>"$out/overlap_$ranks.log"
    log "rc=$?"
  done
fi

if wanted p2p; then
  log "p2p over shm vs vader"
  timeout 45 bench/compare_shm.sh "$build" >"$out/p2p_shm.txt" 2>&1; log "rc=$?"
  log "p2p over ofi (tcp;ofi_rxm) vs Open MPI tcp"
  timeout 60 bench/compare_p2p.sh "$build" >"$out/p2p_ofi.txt" 2>&1; log "rc=$?"
fi
if wanted tune; then
  # docs/tuning.md's figures (dissertation Figures 6.1 and 6.2): htune --validate, the three
  # search modes, on 2 and 4 emulated nodes; tables, reports, .dat files and PNGs per shape.
  for v in 2 4; do
    log "htune --validate, $n ranks, $v emulated nodes"
    timeout 270 bench/tuning_figures.sh --build "$build" --out "$out/tuning_${n}_vnodes$v" -n "$n" \
      --vnodes "$v" -- --space medium --min-size 16K --max-size 4M --size-factor 4 \
      --segments 64K,256K,1M --iterations 5 --warmup 1 >>"$out/tune.log" 2>&1
    log "rc=$? $(tail -3 "$out/tuning_${n}_vnodes$v/validate.txt" 2>/dev/null | tr '\n' ' ')"
  done
fi
log "done in ${SECONDS}s"
