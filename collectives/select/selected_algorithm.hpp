// The names of algorithm selection, as users write them in HALYARD_<COLL>_ALG and the decision
// table ("base:ring", "adapt:binary", "han"): all read from the catalog (catalog.hpp), so an
// algorithm has its name in one place, its family's table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "collectives/core/selected_algorithm.hpp"
#include "collectives/core/vocabulary.hpp"

namespace halyard::select {

// The vocabulary lives in collectives/core; select's users keep their spelling.
using core::Algorithm;
using core::algorithm_variable;
using core::Collective;
using core::collective_name;
using core::kCollectiveCount;
using core::SelectedAlgorithm;

// "base:ring", "adapt:knomial", "han".
std::string algorithm_name(const SelectedAlgorithm& selected);

// Every name `collective` accepts, in documentation order.
std::vector<std::string> valid_algorithm_names(Collective collective);

// Parses a name (case-insensitive); throws Error(kInvalidArgument) naming `source` (the
// variable or table it came from) and listing the valid names.
SelectedAlgorithm parse_algorithm(Collective collective, std::string_view name,
                                  std::string_view source);

}  // namespace halyard::select
