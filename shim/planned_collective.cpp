#include "shim/planned_collective.hpp"

#include "collectives/core/in_place.hpp"
#include "runtime/datatypes/custom_op.hpp"
#include "shim/intercomm.hpp"

namespace halyard::mpi_shim {

namespace {

bool is_users(const void* halyard_buffer, const void* user_buffer) {
  return halyard_buffer == nullptr || halyard_buffer == user_buffer ||
         core::is_in_place(halyard_buffer);
}

// Whether posting `args` again is the whole of the collective's start (planned_collective.hpp).
bool replayable(const Communicator& comm, const core::CollArgs& args, UserBuffers user,
                const Started& checked) {
  return intercomm_of(comm) == nullptr && !checked.complete && args.counts == nullptr &&
         args.displacements == nullptr && args.send_counts == nullptr &&
         args.send_displacements == nullptr && !op_is_custom(args.op) &&
         is_users(args.send, user.send) && is_users(args.recv, user.recv);
}

}  // namespace

std::shared_ptr<const PlannedCall> plan_replay(const Communicator& comm,
                                               const CheckingOnly& checking, UserBuffers user,
                                               const Started& checked) {
  const core::CollArgs* settled = checking.only_call();
  if (settled == nullptr || !replayable(comm, *settled, user, checked)) return nullptr;
  // MPI_Start keeps track of the round's activity itself (PendingRequest::started).
  core::CollArgs args = *settled;
  args.takes_null_request = true;
  return std::make_shared<const PlannedCall>(comm, args);
}

}  // namespace halyard::mpi_shim
