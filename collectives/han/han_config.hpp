// HAN's knobs. Process-wide ones come from the environment (docs/han.md has the table):
//   HALYARD_HAN_SEGSIZE  bytes per pipeline segment (fs)       default: auto (segment_for)
//   HALYARD_HAN_INTER    adapt:<tree> | base: inter-node submodule   default adapt:binomial
//                        (allreduce: base unless set)
//   HALYARD_HAN_INTRA    auto | sm | cma | base: intra-node submodule   default auto
//   HALYARD_HAN_IBS / HALYARD_HAN_IRS  ADAPT's segment inside ib / ir tasks  default: ADAPT's
//   HALYARD_HAN_LEADERS  node | numa: one leader per node or per NUMA domain  default node
//   HALYARD_HAN_TEST_NUMA_DOMAINS  testing aid: pretend every node has this many NUMA domains
// A call may also carry a Tuning (Table 6.2's fs, imod, ibalg, iralg, ibs, irs, smod and ADAPT's
// N/M, from the tuner's decision table); a variable the user set wins over it.
#pragma once

#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "collectives/adapt/params.hpp"
#include "collectives/core/han_tuning.hpp"

namespace halyard::han {

// The submodules (core/han_tuning.hpp). IntraModule::kAuto: the shm engine (flags in the node's
// segment; base, p2p, where the group has no shm channel) for pieces of at most
// kSmallIntraBytes, cma above (resolved per task in submodules.cpp).
using core::InterModule;
using core::IntraModule;

// Up to the shm transport's eager limit a p2p message costs one ring write and no notice, so a
// binomial tree of eager messages beats the notices of sm (ready/done per reader) and cma
// (addresses, done, and per-slice notices among all ranks for reductions).
inline constexpr std::size_t kSmallIntraBytes = 8 * 1024;
// Automatic segment: the whole message up to kAutoMaxSegment, then segments of that size. On
// the 2-core machine where Halyard is developed (8 ranks) every extra segment costs more than
// its overlap gains: a 4 MiB allreduce took 24 ms in one segment and 46 ms in two (docs/han.md).
// Where every rank has a core, set HALYARD_HAN_SEGSIZE (256K-1M is the dissertation's range).
inline constexpr std::size_t kAutoMaxSegment = 16 * 1024 * 1024;
// The lower level of the hierarchy: a node, or a NUMA domain of a node (HierKNEM section 4.1).
enum class LeaderLevel { kNode, kNuma };

// The knobs one call may choose (core/han_tuning.hpp); unset fields keep the process's value.
// Also the shape in which the environment's HALYARD_HAN_* values are kept.
using Tuning = core::HanTuning;

struct Config {
  std::size_t segment_bytes = 0;  // 0: automatic (segment_for)
  InterModule inter = InterModule::kAdapt;
  bool inter_chosen = false;  // HALYARD_HAN_INTER or a call's tuning chose the inter module
  adapt::TreeShape inter_tree = adapt::TreeShape::kBinomial;         // ib's tree
  adapt::TreeShape inter_reduce_tree = adapt::TreeShape::kBinomial;  // ir's tree
  // ADAPT's own segment inside an ib / ir task (Table 6.2's ibs and irs); 0: ADAPT's default.
  std::size_t inter_bcast_segment = 0;
  std::size_t inter_reduce_segment = 0;
  // ADAPT's N and M inside ib / ir tasks; 0: ADAPT's defaults.
  int sends_in_flight = 0;
  int recvs_in_flight = 0;
  IntraModule intra = IntraModule::kAuto;
  LeaderLevel leaders = LeaderLevel::kNode;
  // 0: NUMA domains as the topology reports them; k > 0: the rank at index i among its node's
  // ranks (world order) is in domain i % k, so one-domain machines can test NUMA leaders.
  int test_numa_domains = 0;

  // The pipeline segment of a call moving `message_bytes`: HALYARD_HAN_SEGSIZE when set, else
  // min(message_bytes, kAutoMaxSegment) (at least 1 byte).
  std::size_t segment_for(std::size_t message_bytes) const;
};

// The process's configuration; a bad value throws Error(kInvalidArgument) naming the variable.
const Config& config();

// The configuration of one call: the defaults, then `tuning`, then every HALYARD_HAN_* variable
// the user set (the environment wins, so a user can still pin a knob under a tuned table).
// Throws Error(kInvalidArgument) for tuning values HAN cannot use (segment 0, N < 1, M <= N).
Config config_for(const Tuning& tuning);

// Names as HALYARD_HAN_INTRA and the decision table write them: "auto", "sm", "cma", "base",
// "shm";
// "adapt", "base". parse_* return nullopt for anything else (callers name the source).
// The names of the IntraModule values, in their order: the one list HALYARD_HAN_INTRA, the
// decision table and their error messages read.
inline constexpr std::string_view kIntraModuleNames[] = {"auto", "sm", "cma", "base", "shm"};
static_assert(std::size(kIntraModuleNames) == static_cast<std::size_t>(IntraModule::kShm) + 1);
std::string_view intra_module_name(IntraModule module);
// "auto, sm, cma, base or shm", for error messages.
std::string intra_module_choices();
std::string_view inter_module_name(InterModule module);
std::optional<IntraModule> parse_intra_module(std::string_view name);
std::optional<InterModule> parse_inter_module(std::string_view name);

// Throws Error(kInvalidArgument) for values of `tuning` HAN cannot use, whatever the environment.
void check_tuning(const Tuning& tuning);

// "fs=64K imod=adapt ibalg=binary ..." listing the fields that are set (logs, htune's output).
std::string describe(const Tuning& tuning);

}  // namespace halyard::han
