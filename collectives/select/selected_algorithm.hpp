// The vocabulary of algorithm selection: which collective, which algorithm, and the names
// users write in HALYARD_<COLL>_ALG ("base:ring", "adapt:binary", "han").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/adapt/adapt.hpp"
#include "collectives/han/han_config.hpp"

namespace halyard::select {

enum class Collective {
  kBcast,
  kReduce,
  kAllreduce,
  kAllgather,
  kBarrier,
  kGather,
  kScatter,
  kAlltoall
};

inline constexpr std::size_t kCollectiveCount = 8;

// "bcast", "reduce", ...; and the variable that forces its algorithm, "HALYARD_BCAST_ALG".
std::string_view collective_name(Collective collective);
const char* algorithm_variable(Collective collective);

enum class Algorithm {
  kLinear,
  kBinomial,
  kRing,
  kRecursiveDoubling,
  kRabenseifner,
  kBruck,
  kDissemination,
  kPairwise,
  kAdapt,  // ADAPT's segmented trees (bcast and reduce)
  kHan,    // HAN's hierarchical pipelines (bcast, reduce, allreduce, allgather, barrier)
};

struct SelectedAlgorithm {
  Algorithm algorithm = Algorithm::kLinear;
  adapt::TreeShape tree = adapt::TreeShape::kBinary;  // kAdapt only
  // kAdapt only: segment size chosen by a rule or a decision table; 0 means ADAPT's default.
  // HALYARD_<COLL>_SEGSIZE, when set, wins over it.
  std::size_t segment_bytes = 0;
  // kHan only: the call's HAN configuration chosen by a decision table (empty: the process's,
  // from HALYARD_HAN_* and the defaults). HALYARD_HAN_* variables the user set win over it.
  han::Tuning han{};

  friend bool operator==(const SelectedAlgorithm&, const SelectedAlgorithm&) = default;
};

// "base:ring", "adapt:knomial", "han".
std::string algorithm_name(const SelectedAlgorithm& selected);

// Every name `collective` accepts, in documentation order.
std::vector<std::string> valid_algorithm_names(Collective collective);

// Parses a name (case-insensitive); throws Error(kInvalidArgument) naming `source` (the
// variable or table it came from) and listing the valid names.
SelectedAlgorithm parse_algorithm(Collective collective, std::string_view name,
                                  std::string_view source);

}  // namespace halyard::select
