// The algorithm catalog: the tables of base, adapt, han and device (core/catalog.hpp) joined in
// that order, which is the documentation order of the names. Every question about algorithms
// is answered from it: names (selected_algorithm.hpp), the post() of a choice, the algorithm
// for device buffers.
#pragma once

#include <span>

#include "collectives/core/catalog.hpp"
#include "runtime/device_support.hpp"

namespace halyard::select {

// Every entry, built once per process.
std::span<const core::AlgorithmEntry> catalog();

// The entry that runs `algorithm` for `collective`, or null when the collective has no such
// algorithm (a decision table naming another collective's). Constant time: every call asks.
const core::AlgorithmEntry* entry_for(core::Collective collective, core::Algorithm algorithm);

// The first entry of `collective` for buffers in `memory` that fits `shape`: how device
// buffers find their algorithm (they follow the buffers, not a name); null when there is none.
const core::AlgorithmEntry* entry_for_memory(core::Collective collective, MemoryKind memory,
                                             const core::CommShape& shape);

}  // namespace halyard::select
