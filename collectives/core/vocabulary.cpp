#include "collectives/core/vocabulary.hpp"

#include <array>

namespace halyard::core {

namespace {

struct CollectiveNames {
  std::string_view name;       // "bcast"
  std::string_view operation;  // "ibcast"
  const char* variable;        // "HALYARD_BCAST_ALG"
};

// Indexed by Collective.
constexpr std::array<CollectiveNames, kCollectiveCount> kNames{{
    {"bcast", "ibcast", "HALYARD_BCAST_ALG"},
    {"reduce", "ireduce", "HALYARD_REDUCE_ALG"},
    {"allreduce", "iallreduce", "HALYARD_ALLREDUCE_ALG"},
    {"allgather", "iallgather", "HALYARD_ALLGATHER_ALG"},
    {"barrier", "ibarrier", "HALYARD_BARRIER_ALG"},
    {"gather", "igather", "HALYARD_GATHER_ALG"},
    {"scatter", "iscatter", "HALYARD_SCATTER_ALG"},
    {"alltoall", "ialltoall", "HALYARD_ALLTOALL_ALG"},
    {"gatherv", "igatherv", "HALYARD_GATHERV_ALG"},
    {"scatterv", "iscatterv", "HALYARD_SCATTERV_ALG"},
    {"allgatherv", "iallgatherv", "HALYARD_ALLGATHERV_ALG"},
    {"alltoallv", "ialltoallv", "HALYARD_ALLTOALLV_ALG"},
    {"reduce_scatter_block", "ireduce_scatter_block", "HALYARD_REDUCE_SCATTER_BLOCK_ALG"},
    {"reduce_scatter", "ireduce_scatter", "HALYARD_REDUCE_SCATTER_ALG"},
    {"scan", "iscan", "HALYARD_SCAN_ALG"},
    {"exscan", "iexscan", "HALYARD_EXSCAN_ALG"},
}};

const CollectiveNames& names_of(Collective collective) {
  static constexpr CollectiveNames kInvalid{"invalid", "invalid", "HALYARD_INVALID_ALG"};
  const auto index = static_cast<std::size_t>(collective);
  return index < kNames.size() ? kNames[index] : kInvalid;
}

}  // namespace

std::string_view collective_name(Collective collective) {
  return names_of(collective).name;
}

std::string_view operation_name(Collective collective) {
  return names_of(collective).operation;
}

const char* algorithm_variable(Collective collective) {
  return names_of(collective).variable;
}

}  // namespace halyard::core
