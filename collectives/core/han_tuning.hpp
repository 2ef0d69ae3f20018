// The knobs of HAN one call may choose (dissertation Table 6.2 plus ADAPT's N/M inside HAN's
// inter-node tasks), in the words the decision table and htune write ("fs", "imod", "smod",
// ...). They are vocabulary shared by select, the tuner and collectives/han, which reads them
// (han_config.hpp); unset fields keep the process's value.
#pragma once

#include <cstddef>
#include <optional>

#include "collectives/core/vocabulary.hpp"

namespace halyard::core {

// HAN's inter-node submodule: ADAPT's trees or base's binomial tree.
enum class InterModule { kAdapt, kBase };
// HAN's intra-node submodule; kAuto picks shm (the shm engine) for small pieces and cma above.
// Order matters: han::kIntraModuleNames spells them in this order.
enum class IntraModule { kAuto, kSm, kCma, kBase, kShm };

struct HanTuning {
  std::optional<std::size_t> segment_bytes;         // fs
  std::optional<InterModule> inter;                 // imod
  std::optional<TreeShape> inter_bcast_tree;        // ibalg
  std::optional<TreeShape> inter_reduce_tree;       // iralg
  std::optional<std::size_t> inter_bcast_segment;   // ibs
  std::optional<std::size_t> inter_reduce_segment;  // irs
  std::optional<IntraModule> intra;                 // smod
  std::optional<int> sends_in_flight;               // ADAPT's N inside ib / ir
  std::optional<int> recvs_in_flight;               // ADAPT's M inside ib / ir

  bool empty() const { return *this == HanTuning{}; }
  friend bool operator==(const HanTuning&, const HanTuning&) = default;
};

}  // namespace halyard::core
