// The steps of a collective's intercommunicator form, each run once the one before has
// completed, so that the non-blocking forms return at once and progress with the event loop.
//
// Each step posts operations and returns what it Started; its completion step (an unpack) runs
// before the next step. The first step runs inside the MPI call and is the only one that may
// start a collective on the local group: later steps run from completion callbacks, where
// Halyard's engines may not start (an engine's first call on a communicator agrees on shared
// state and waits), so they post point-to-point messages only. Every rank thus starts the local
// group's collectives in call order, as MPI requires.
#pragma once

#include <functional>
#include <vector>

#include "shim/collective_calls.hpp"

namespace halyard::mpi_shim {

using ChainStep = std::function<Started()>;

// Runs `steps` in order; the result completes when the last has (or with the first failure),
// and then runs `finish` (the final unpack) from MPI_Wait / MPI_Test. Errors of the steps run
// inside this call are thrown here.
Started start_chain(const Communicator& bridge, std::vector<ChainStep> steps,
                    CompletionStep finish = {});

}  // namespace halyard::mpi_shim
