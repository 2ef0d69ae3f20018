// The process-wide state of the MPI shim: the Runtime MPI_Init made, and the tables that turn
// MPI handles (communicators, requests) into Halyard objects.
//
// Tables are deques so that an entry a call holds stays put while the same call adds another
// (MPI_Comm_dup reads its parent, then adds the copy). Freed slots are reused.
#pragma once

#include <mpi.h>

#include <deque>
#include <optional>
#include <vector>

#include "runtime/communicator.hpp"
#include "runtime/request.hpp"
#include "runtime/runtime.hpp"
#include "shim/typed_buffer.hpp"

namespace halyard::mpi_shim {

enum class Phase { kBeforeInit, kInitialized, kFinalized };

struct CommEntry {
  Communicator comm;
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
};

// A non-blocking operation the application has not completed yet.
struct PendingRequest {
  Request request;
  // The handler of its communicator when it was posted: a failure reported at completion goes
  // there even if the communicator was freed meanwhile.
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  // Run by MPI_Wait / MPI_Test when the operation succeeded: unpacks data staged for a derived
  // datatype into the user's buffer (typed_buffer.hpp). Empty when nothing was staged.
  CompletionStep complete;
};

class ShimState {
 public:
  Phase phase() const { return phase_; }
  // Creates the Runtime, MPI_COMM_WORLD and MPI_COMM_SELF (collective over the job).
  void initialize();
  // Drops every handle, finalizes and destroys the Runtime (collective over the job).
  void finalize();
  Runtime& runtime() { return *runtime_; }
  // Null outside the initialized phase.
  Runtime* runtime_if_any() { return phase_ == Phase::kInitialized ? runtime_ : nullptr; }

  // The entry of a valid, non-null communicator handle; throws MpiError(MPI_ERR_COMM).
  CommEntry& comm(MPI_Comm handle);
  // Null when `handle` names no communicator.
  CommEntry* find_comm(MPI_Comm handle);
  MPI_Comm add_comm(Communicator comm, MPI_Errhandler errhandler);
  void remove_comm(MPI_Comm handle);
  // MPI_COMM_WORLD's handler; it outlives MPI_Finalize (calls made after it report there).
  MPI_Errhandler world_errhandler() const;

  MPI_Request add_request(PendingRequest request);
  // Null when `handle` names no pending request (MPI_REQUEST_NULL included).
  PendingRequest* find_request(MPI_Request handle);
  void remove_request(MPI_Request handle);

 private:
  Phase phase_ = Phase::kBeforeInit;
  // Owned, but deliberately never destroyed unless MPI_Finalize runs: a program that exits
  // without it must not run a collective finalize from a static destructor.
  Runtime* runtime_ = nullptr;
  std::deque<std::optional<CommEntry>> comms_;  // index = handle's low bits; 0 = MPI_COMM_NULL
  std::vector<std::size_t> free_comms_;
  std::deque<std::optional<PendingRequest>> requests_;  // 0 = MPI_REQUEST_NULL
  std::vector<std::size_t> free_requests_;
  MPI_Errhandler world_errhandler_ = MPI_ERRORS_ARE_FATAL;  // kept over MPI_Finalize
};

ShimState& shim_state();

}  // namespace halyard::mpi_shim
