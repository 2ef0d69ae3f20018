// Choosing the algorithm of one collective call.
//
// Precedence, highest first:
//   0. a communicator of one member runs collectives/self's copies on host buffers, whatever
//      1-3 say (every algorithm would reach the same result, at several times the cost);
//   1. HALYARD_<COLL>_ALG (read once per process; a bad name throws on every call);
//   2. a decision table: one installed with set_decision_table(), else the tuner's JSON table
//      named by HALYARD_TUNING_FILE (read on the first choice; docs/tuning.md);
//   3. the built-in rules below, documented in docs/collectives.md.
// `bytes` is count * datatype size: the whole vector for bcast, reduce and allreduce, one rank's
// block for allgather, gather, scatter and alltoall, and 0 for barrier.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>

#include "collectives/core/catalog.hpp"
#include "collectives/core/comm_shape.hpp"
#include "collectives/select/selected_algorithm.hpp"

namespace halyard::select {

using core::CommShape;
using core::shape_of;

// Returns the algorithm for (collective, communicator shape, bytes), or nullopt to defer to the
// rules.
using DecisionTable = std::function<std::optional<SelectedAlgorithm>(
    Collective, const CommShape& shape, std::size_t bytes)>;

// Installs (or, with an empty function, removes) the process-wide decision table, replacing the
// one read from HALYARD_TUNING_FILE. Every rank must install the same table: ranks that chose
// differently would not match each other.
void set_decision_table(DecisionTable table);

// The built-in rules by message size and communicator shape: HAN where the communicator is
// hierarchical and the size is one where HAN measured faster, a flat algorithm otherwise.
SelectedAlgorithm builtin_rule(Collective collective, const CommShape& shape, std::size_t bytes);
// The same for a communicator on one node.
SelectedAlgorithm builtin_rule(Collective collective, int comm_size, std::size_t bytes);

// The algorithm forced by HALYARD_<COLL>_ALG, if set (read once; a reference, since every
// collective call asks and a SelectedAlgorithm is not small).
const std::optional<SelectedAlgorithm>& forced_algorithm(Collective collective);

// What a call runs: the forced algorithm, else the table's answer, else the rule's.
SelectedAlgorithm choose(Collective collective, const CommShape& shape, std::size_t bytes);
SelectedAlgorithm choose(Collective collective, int comm_size, std::size_t bytes);

// What runs one validated call: the catalog entry and the parameters its post() gets. Device
// buffers take the device entry that fits the communicator, whatever HALYARD_<COLL>_ALG says
// (host algorithms cannot read device memory); host buffers take choose() above. Throws
// Error(kInvalidArgument) when the choice is an algorithm the collective does not have (a
// decision table naming another collective's).
struct Choice {
  const core::AlgorithmEntry* entry = nullptr;
  SelectedAlgorithm params;
};
Choice choose(const core::CollArgs& args);

}  // namespace halyard::select
