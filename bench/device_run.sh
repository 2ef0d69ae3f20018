#!/usr/bin/env bash
# One-shot benchmark session on the 16-core GPU machine lent by the `device` tool: builds Halyard
# there (that machine has the libfabric runtime but no headers: they travel in .device/include)
# and produces every figure of docs/benchmarks.md's device section. Every part has its own time
# limit so one slow part cannot eat the others. Results go to $OUT (or out/).
#
#   bench/device_run.sh [PART...]   (from the repository root, on the device machine)
#     PART: build compare noise hbench p2p overlap tune datatypes rules gathers, and cuda
#     (= cuda-tests cuda-bench);
#     the default is build compare noise hbench p2p. The device tool allows 10 minutes a
#     command; the parts' limits add up to about 11 plus the build, so to be safe run
#     `bench/device_run.sh build compare noise`, then `bench/device_run.sh hbench p2p` on the same
#     warm machine (the build folder stays), `bench/device_run.sh overlap` (about 9 minutes at
#     most), `bench/device_run.sh tune` (docs/tuning.md's 16-rank figures: htune --validate on 2
#     and 4 emulated nodes, about 8 minutes), `bench/device_run.sh datatypes` (issue 25's vector
#     vs contiguous allreduce on 2 ranks, under a minute) and `bench/device_run.sh cuda` as
#     commands of their own.
#
# Before sending the tree there, copy the headers from this machine's libfabric-dev into the
# ignored folder the device tool carries:
#   mkdir -p .device/include/rdma && cp /usr/include/rdma/fabric.h /usr/include/rdma/fi_*.h .device/include/rdma/
# and run with carry [".device"].
#
# The `cuda` part (issue 10; one command: `bench/device_run.sh cuda`, or `cuda-tests` then
# `cuda-bench` should the two not fit in one 10-minute call) builds a second tree with
# HALYARD_CUDA=ON and the tests (build/device-cuda, sm_90 unless CUDA_ARCH says otherwise), runs
# every GPU test (ctest -L cuda and the CUDA unit tests; none may be skipped there) and the two
# GPU benchmarks of docs/transport-cuda-ipc.md: device bcast with 2, 4 and 8 ranks against the
# GPU's device-to-device copy bandwidth, and the 64 MiB float32 allreduce against reductions on
# the CPU. If that machine has no GoogleTest, carry this machine's along:
#   mkdir -p .device/gtest/usr/include .device/gtest/usr/lib/x86_64-linux-gnu/cmake &&
#   cp -r /usr/include/gtest /usr/include/gmock .device/gtest/usr/include/ &&
#   cp /usr/lib/x86_64-linux-gnu/libg{test,mock}*.a .device/gtest/usr/lib/x86_64-linux-gnu/ &&
#   cp -r /usr/lib/x86_64-linux-gnu/cmake/GTest .device/gtest/usr/lib/x86_64-linux-gnu/cmake/
# (GTest's folder only: the other packages' CMake files there name libraries that do not travel).
set -uo pipefail
out=${OUT:-out}
mkdir -p "$out"
# RANKS, VNODES, BUILD and SWEEP_MAX (rules, gathers) change the defaults (e.g. to try the script on a small machine:
# RANKS=2 VNODES=1,2 BUILD=build/dev OUT=/tmp/run bench/device_run.sh compare noise hbench).
build=${BUILD:-build/device}
n=${RANKS:-16}
vnodes=${VNODES:-1,2,4}
parts=("$@")
[[ ${#parts[@]} -gt 0 ]] || parts=(build compare noise hbench p2p)
cuda_build=${CUDA_BUILD:-build/device-cuda}
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
  # Halyard on 1, 2 and 4 emulated nodes (ofi between them) against Open MPI tuned/han/adapt
  # (vader) and MPICH where installed, both on one node; the goals of issues 8 and 24 are read
  # from this table.
  log "MPI collectives, $n ranks: Halyard (hmpicc, --vnodes $vnodes) vs Open MPI tuned/han/adapt and MPICH"
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
  timeout 100 "$build/bin/hlaunch" --oversubscribe -n "$n" -- "$build/bin/hbench" --max-size 4M --scale 0.2 \
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
  # The eager limit (64 KiB) was set on the 2-core VM, where a CMA read costs 2.5-3 us
  # (docs/transport-shm.md, "Eager limit"): the same with the rendezvous from 8 KiB, as before.
  log "p2p over shm vs vader, HALYARD_SHM_EAGER_LIMIT=8K"
  HALYARD_SHM_EAGER_LIMIT=8K timeout 45 bench/compare_shm.sh "$build" >"$out/p2p_shm_eager8k.txt" 2>&1
  log "rc=$?"
  log "p2p over ofi (tcp;ofi_rxm) vs Open MPI tcp"
  timeout 60 bench/compare_p2p.sh "$build" >"$out/p2p_ofi.txt" 2>&1; log "rc=$?"
fi
# forced_sweep NAME SPEC...: every candidate SPEC (collective:algorithm) forced
# (HALYARD_<COLL>_ALG) on $n, 8 and 4 ranks, two alternating rounds, 16 KiB .. SWEEP_MAX (16 MiB),
# one line per size in NAME_<ranks>.txt, then per collective and size the candidates' best
# times, fastest first, in NAME_<ranks>_ranked.txt and the summary.
forced_sweep() {
  local name=$1
  shift
  local ranks round spec coll alg
  for ranks in $n 8 4; do
    log "$name: every candidate forced, $ranks ranks, 16 KiB .. ${SWEEP_MAX:-16M}, 2 rounds"
    for round in 1 2; do
      for spec in "$@"; do
        coll=${spec%%:*} alg=${spec#*:}
        env "HALYARD_${coll^^}_ALG=$alg" timeout 60 "$build/bin/hlaunch" --oversubscribe -n "$ranks" -- \
          "$build/bin/mpi_collectives_halyard" --only "$coll" --min-size 16K --max-size "${SWEEP_MAX:-16M}" --scale 0.3 2>&1 |
          awk -v c="$coll" -v a="$alg" '$1 ~ /^[0-9]+$/ {print c, a, $1, $2} !/^[#0-9]/ {print "# " c " " a ": " $0}' \
            >>"$out/${name}_$ranks.txt"
      done
    done
    log "$(grep -c '^[a-z]' "$out/${name}_$ranks.txt") figures, $(grep -c '^#' "$out/${name}_$ranks.txt") other lines"
    awk '/^[a-z]/ { k = $1 " " $3 " " $2; if (!(k in best) || $4 < best[k]) best[k] = $4 }
      END { for (k in best) print k, best[k] }' "$out/${name}_$ranks.txt" | sort -k1,1 -k2,2n -k4,4g |
      awk '{ if ($1 " " $2 != row) { if (row != "") print ""; printf "%-9s %9s", $1, $2; row = $1 " " $2 }
             printf "  %s=%s", $3, $4 } END { print "" }' | tee "$out/${name}_${ranks}_ranked.txt" >>"$out/summary.txt"
  done
}

if wanted rules; then
  # The one-node rules above 16 KiB were measured on 2 cores (2-8 ranks oversubscribed): here
  # every candidate of bcast, reduce and allreduce runs forced to set the rules where ranks have
  # their own cores (docs/collectives.md, "Rules").
  forced_sweep rules bcast:shm bcast:intranode:cma bcast:adapt:binary bcast:adapt:knomial \
    bcast:base:binomial reduce:shm reduce:intranode:cma reduce:adapt:binary reduce:adapt:knomial \
    reduce:base:binomial allreduce:shm allreduce:intranode:cma allreduce:base:rabenseifner \
    allreduce:base:ring
fi

if wanted gathers; then
  # The one-node rules of the gather family, alltoall and alltoallv (docs/collectives.md, "The gather
  # family"), measured on 2 cores only: the shm engine against the flat algorithms where ranks
  # have their own cores.
  forced_sweep gathers allgather:shm allgather:base:ring gather:shm gather:base:linear \
    scatter:shm scatter:base:linear reduce_scatter_block:shm reduce_scatter_block:base:ring \
    alltoall:shm alltoall:base:pairwise alltoallv:shm alltoallv:base:pairwise
fi
if wanted datatypes; then
  # Issue 25: MPI_Allreduce of 1 MiB as vector datatypes against contiguous, 2 ranks; goal: the
  # ratio within 1.5x (docs/mpi-shim.md, Derived datatypes).
  log "vector vs contiguous MPI_Allreduce, 1 MiB, 2 ranks"
  timeout 60 "$build/bin/hlaunch" -n 2 -- "$build/bin/mpi_vector_allreduce_halyard" --rounds 10 \
    >"$out/vector_allreduce.txt" 2>&1
  log "rc=$? $(tail -n 4 "$out/vector_allreduce.txt" | awk '{print $NF}' | tr '\n' ' ')"
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

# The CUDA parts: "cuda" = cuda-tests then cuda-bench (each builds what it needs, incrementally).
cuda_tests=OFF
cuda_configure_and_build() {
  [[ -n ${cuda_built:-} ]] && return 0
  log "CUDA: nvcc $(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p'), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
  local gtest=()
  [[ -d .device/gtest/usr ]] && gtest=(-DCMAKE_PREFIX_PATH="$PWD/.device/gtest/usr")
  cuda_tests=ON
  cuda_cmake() {
    cmake -S . -B "$cuda_build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHALYARD_CUDA=ON \
      -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" -DHALYARD_BUILD_TESTS=$cuda_tests \
      -DHALYARD_WERROR=OFF -DHALYARD_LIBFABRIC_INCLUDE="$PWD/.device/include" "${gtest[@]}" >"$out/cuda_cmake.log" 2>&1
  }
  if ! cuda_cmake; then
    cuda_tests=OFF
    log "CUDA: configuring with the tests failed (no GoogleTest? see the header); benchmarks only"
    cuda_cmake || { log "CUDA configure failed"; tail -30 "$out/cuda_cmake.log"; exit 1; }
  fi
  local targets=(hlaunch halyard_bench_cuda)
  [[ $cuda_tests == ON ]] && targets+=(cuda_collective_check fake_device_check stub_driver_check cuda_ipc_device_test
    cuda_ipc_cache_test cuda_ipc_dispatch_test)
  timeout 400 cmake --build "$cuda_build" -j "$(nproc)" --target "${targets[@]}" >"$out/cuda_build.log" 2>&1 ||
    { log "CUDA build failed"; tail -40 "$out/cuda_build.log"; exit 1; }
  cuda_built=1
  log "CUDA build done at ${SECONDS}s"
}

if wanted cuda || wanted cuda-tests; then
  cuda_configure_and_build
  if [[ $cuda_tests == ON ]]; then
    # On a GPU machine nothing here may report "Skipped" but the tests that need two GPUs.
    timeout 420 ctest --test-dir "$cuda_build" --output-on-failure --timeout 300 \
      -R '^(cuda_|Cuda|IpcMappingCache|DeviceDispatch)' >"$out/cuda_tests.txt" 2>&1
    log "CUDA tests rc=$?: $(grep -E 'tests passed|tests failed' "$out/cuda_tests.txt")"
    grep -E 'Skipped|Failed|\*\*\*' "$out/cuda_tests.txt" | tee -a "$out/summary.txt"
  fi
fi

if wanted cuda || wanted cuda-bench; then
  cuda_configure_and_build
  for ranks in 2 4 8; do
    log "device bcast, $ranks ranks"
    timeout 120 "$cuda_build/bin/hlaunch" --oversubscribe -n "$ranks" -- "$cuda_build/bin/halyard_bench_cuda" bcast \
      2>&1 | tee "$out/cuda_bcast_$ranks.txt" | tee -a "$out/summary.txt"
  done
  for ranks in 2 4 8; do
    log "allreduce 64 MiB float32: GPU path vs reductions on the CPU, $ranks ranks"
    timeout 180 "$cuda_build/bin/hlaunch" --oversubscribe -n "$ranks" -- "$cuda_build/bin/halyard_bench_cuda" allreduce \
      2>&1 | tee "$out/cuda_allreduce_$ranks.txt" | tee -a "$out/summary.txt"
  done
  log "allreduce 64 MiB float32 over 2 emulated nodes (staged through pinned host buffers), 4 ranks"
  timeout 180 "$cuda_build/bin/hlaunch" --oversubscribe -n 4 --vnodes 2 -- "$cuda_build/bin/halyard_bench_cuda" allreduce \
    2>&1 | tee "$out/cuda_allreduce_4_vnodes2.txt" | tee -a "$out/summary.txt"
fi
log "done in ${SECONDS}s"
