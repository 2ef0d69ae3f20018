#!/usr/bin/env bash
# Installs dependencies, builds Halyard and runs the tests. This is the README's test command
# and exactly what CI runs. Four stages, all from scratch, within the CI budget (the figures
# and the reasons for each subset are in docs/reliability.md):
#   1. normal build (build/test) and the whole suite;
#   2. ASan+UBSan build (build/test-asan) and the subset of the suite in asan_tests below;
#   3. TSan build (build/test-tsan) of the threaded parts: hlaunch and its bootstrap server, the
#      ranks' bootstrap client with its reader thread, the in-process multi-runtime unit tests;
#   4. the libFuzzer target of the control protocol for 30 s (scripts/fuzz.sh).
# HALYARD_TEST_STAGES=normal,asan,tsan,fuzz picks stages (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
build=${HALYARD_TEST_BUILD_DIR:-build/test}
stages=",${HALYARD_TEST_STAGES:-normal,asan,tsan,fuzz},"
jobs=$(nproc)
stage() { [[ "$stages" == *",$1,"* ]]; }
started=$(date +%s)
elapsed() { echo "test.sh: $1 done at $(($(date +%s) - started)) s"; }

# Stage 1: everything. Single-process tests (label `unit`) run $jobs at a time; multi-rank tests
# oversubscribe small machines, so they run one at a time.
if stage normal; then
  # -g1 (line tables: backtraces keep their file:line) compiles about a quarter faster than -g.
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
  cmake --build "$build" -j "$jobs"
  ctest --test-dir "$build" --output-on-failure --timeout 300 -L '^unit$' -j "$jobs"
  ctest --test-dir "$build" --output-on-failure --timeout 300 -LE '^unit$'
  elapsed "normal build and suite"
fi

# A sanitizer stage: NAME (build dir suffix), the CMake option that turns it on, the ctest
# regex of the tests it runs, then the targets those tests need; `exclude` (set for the call)
# is a regex of tests it leaves out although the first regex names them.
sanitizer_stage() {
  local name=$1 option=$2 tests=$3
  shift 3
  local dir="$build-$name"
  # -O1 -g1 (line tables for the reports) compiles faster than -O2 -g, and so do the
  # precompiled common headers (HALYARD_PCH) and unity builds (16 sources a compile: each
  # header parsed once per batch, about 3x faster on 2 cores); warnings and each source's own
  # includes are the normal stage's business, so they are not checked here.
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-D$option=ON" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DHALYARD_WERROR=OFF -DHALYARD_CUDA=OFF -DHALYARD_BUILD_BENCH=OFF -DHALYARD_PCH=ON \
    -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16
  cmake --build "$dir" -j "$jobs" --target "$@"
  ctest --test-dir "$dir" --output-on-failure --timeout 300 -R "$tests" -E "${exclude:-^$}"
  elapsed "$name build and subset"
}

# Stage 2: ASan+UBSan. Every unit test, each algorithm and p2p scenario once (4 ranks over 2
# emulated nodes: shm, CMA and ofi all run), HAN, the intranode primitives and the reliability
# tests (peer failure, mismatched calls without the check, stress), and the device collectives'
# protocol on the fake device (cuda_fake_*_n4_vnodes2). One report fails the test. Of the
# "no byte after the error" tests only the shm receive runs here (the others take longer and
# cover the same runtime code through ofi and the collectives).
asan_targets=(hlaunch collective_check every_pair_check adapt_collectives p2p_scenarios han_check
  intranode_primitives shm_data_path halyard_collectives_demo halyard_topology_example
  peer_failure_check misuse_check stress_collectives fake_device_check buffers_quiet_check
  withdrawn_send_check p2p_matching_scenarios timeout_sends_progress_check hang_rank
  comm_churn
  core_request_test core_event_loop_test core_matching_test core_communicator_test
  core_router_test bootstrap_topology_test core_self_transport_test core_active_messages_test
  progress_thread_test
  exchange_check rma_window_check
  datatypes_reduction_test launcher_protocol_test launcher_store_test
  reliability_bootstrap_hardening_test tuner_decision_table_test)
asan_tests='^(core_|datatypes_|launcher_(protocol|store)|reliability_|Request|EventLoop|Matching|Communicator|Router|Topology|SelfTransport|AmTest|SingletonRuntime|AvailableIsas|KeyValueStore|CollectiveGate|Control|BootstrapHardening|ProgressThread|DecisionTable|HanTuning|.*_n4_vnodes2$|han_|intranode_primitives|collectives_(bcast|reduce|allreduce|barrier|alltoallv)_shm_n3$|collectives_(channels_n2|inflight_shm_n4|gatherv_late_root_shm_n3)$)'
if stage asan; then
  ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    exclude='^reliability_quiet_(recv_ofi|bcast|allreduce|han|timeout)' \
    sanitizer_stage asan HALYARD_SANITIZE "$asan_tests" "${asan_targets[@]}"
fi

# Stage 3: TSan on what runs threads: hlaunch, the ranks' bootstrap client (reader thread), the
# in-process tests that run one runtime per thread, the progress thread (in-process tests,
# and 2 ranks through hlaunch with the thread switched on mid-job), and the MPI shim under
# MPI_THREAD_MULTIPLE (4 threads per rank, with and without the progress thread).
tsan_targets=(hlaunch kv_exchange_rank misbehaving_rank placement_rank cpu_share_rank
  launcher_protocol_test launcher_hang_verdict_test
  launcher_store_test launcher_parts_test launcher_launch_info_test launcher_hosts_test
  halyard_collectives_demo reliability_bootstrap_hardening_test
  core_communicator_test core_active_messages_test progress_thread_test exchange_check
  halyard_mpi shim_threads)
tsan_tests='^(launcher_|reliability_bootstrap|BootstrapHardening|KeyValueStore|CollectiveGate|Control|LaunchOptions|LaunchInfo|Communicator|AmTest|ProgressThread|progress_exchange_n2$|shim_threads_)'
if stage tsan; then
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    sanitizer_stage tsan HALYARD_TSAN "$tsan_tests" "${tsan_targets[@]}"
fi

if stage fuzz; then
  ./scripts/fuzz.sh 30
  elapsed "fuzzing"
fi
