// Persistent collectives (MPI 4's MPI_Allreduce_init and friends): a call planned once, its
// arguments checked and its algorithm chosen, then started many times. Each start() posts the
// planned algorithm directly, skipping the checks and the selection a fresh call pays
// (collectives/planned_call.hpp); the rounds are the same collective as the i-call's, on the
// same buffers, which must stay alive and may be refilled between rounds.
//
// Every rank plans the same calls in the same order and starts them in the same order, as
// with any collective. A round must complete (its Request waited or tested done) before the
// next start(); start() throws Error(kInvalidArgument) otherwise. The v-variants have no
// persistent form here (their count arrays are read per call); the MPI shim's MPI_*v_init
// rebuilds those calls at every MPI_Start.
#pragma once

#include <cstddef>
#include <memory>

#include "runtime/communicator.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/request.hpp"

namespace halyard {

class PlannedCall;

class PersistentCollective {
 public:
  // An empty one (valid() false): what a default member holds before a *_init assigns it.
  PersistentCollective() = default;
  explicit PersistentCollective(std::shared_ptr<const PlannedCall> plan);

  // Posts one round and returns its Request.
  Request start();
  // Whether a started round has not completed yet.
  bool active() const noexcept { return !last_.done(); }
  bool valid() const noexcept { return plan_ != nullptr; }

  // Keeps `resource` alive as long as the plan (the typed API's custom op registration).
  void keep(std::shared_ptr<const void> resource) { kept_ = std::move(resource); }

 private:
  std::shared_ptr<const PlannedCall> plan_;
  std::shared_ptr<const void> kept_;
  Request last_;
};

// The same arguments as the i-calls of collectives/collectives.hpp (kInPlace where they take
// it); argument errors throw here, once.
PersistentCollective bcast_init(const Communicator& comm, void* buffer, std::size_t count,
                                Datatype type, int root);
PersistentCollective reduce_init(const Communicator& comm, const void* send, void* recv,
                                 std::size_t count, Datatype type, Op op, int root);
PersistentCollective allreduce_init(const Communicator& comm, const void* send, void* recv,
                                    std::size_t count, Datatype type, Op op);
PersistentCollective allgather_init(const Communicator& comm, const void* send, void* recv,
                                    std::size_t count, Datatype type);
PersistentCollective gather_init(const Communicator& comm, const void* send, void* recv,
                                 std::size_t count, Datatype type, int root);
PersistentCollective scatter_init(const Communicator& comm, const void* send, void* recv,
                                  std::size_t count, Datatype type, int root);
PersistentCollective alltoall_init(const Communicator& comm, const void* send, void* recv,
                                   std::size_t count, Datatype type);
PersistentCollective barrier_init(const Communicator& comm);
PersistentCollective reduce_scatter_block_init(const Communicator& comm, const void* send,
                                               void* recv, std::size_t count, Datatype type, Op op);
PersistentCollective scan_init(const Communicator& comm, const void* send, void* recv,
                               std::size_t count, Datatype type, Op op);
PersistentCollective exscan_init(const Communicator& comm, const void* send, void* recv,
                                 std::size_t count, Datatype type, Op op);

}  // namespace halyard
