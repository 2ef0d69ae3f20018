// The path of every collective call below its public entry (the C++ API, collectives.cpp, and
// the MPI shim): a CollArgs the entry validated passes the guard (HALYARD_CHECK's signature
// exchange, HALYARD_COLL_TIMEOUT's watchdog), the selection picks a catalog entry and its
// parameters, and the entry's post() starts the algorithm. Nothing on this path checks the
// caller's arguments again, allocates, or erases a type.
#pragma once

#include "collectives/core/coll_args.hpp"
#include "collectives/select/selection.hpp"
#include "runtime/request.hpp"

namespace halyard {

// `args` must have passed core::validate() (or the shim's checks and core::settle()).
Request post_call(const core::CollArgs& args);

// The same call with its algorithm chosen once, beforehand (select::choose(args)): what a call
// posted again and again with unchanged arguments takes (the MPI shim's persistent
// collectives), so that each round pays neither the selection nor its look-ups.
Request post_chosen(const core::CollArgs& args, const select::Choice& choice);

// Whether the algorithm the selection picks for `args` takes its buffers' layouts
// (core::Supports::takes_layouts). An entry whose buffers do not lie back to back asks before it
// stages them: if so it sets CollArgs' layouts and posts the user's buffers as they are.
bool layouts_taken(const core::CollArgs& args);

}  // namespace halyard
