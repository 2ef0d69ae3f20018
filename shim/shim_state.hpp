// The process-wide state of the MPI shim: the Runtime MPI_Init made, and the tables that turn
// MPI handles (communicators, requests) into Halyard objects.
//
// Tables are deques so that an entry a call holds stays put while the same call adds another
// (MPI_Comm_dup reads its parent, then adds the copy). Freed slots are reused.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runtime/communicator.hpp"
#include "runtime/request.hpp"
#include "runtime/runtime.hpp"
#include "shim/handle_table.hpp"
#include "shim/info_objects.hpp"
#include "shim/typed_buffer.hpp"

namespace halyard::mpi_shim {

enum class Phase { kBeforeInit, kInitialized, kFinalized };

struct CommEntry {
  Communicator comm;
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  std::string name;                 // MPI_Comm_set_name; "" until named
  std::map<int, void*> attributes;  // keyval -> value (attributes.hpp)
  InfoEntries hints;                // MPI_Comm_set_info
};

// A non-blocking operation the application has not completed yet, or a persistent request.
struct PendingRequest {
  // `{request, errhandler[, step]}` makes a one-shot request.
  PendingRequest(Request posted = {}, MPI_Errhandler handler = MPI_ERRORS_ARE_FATAL,
                 CompletionStep step = {})
      : request(std::move(posted)), errhandler(handler), complete(std::move(step)) {}

  // The operation in flight; null for a persistent request that is inactive (before MPI_Start
  // and after its completion was reported), and for a planned collective's round that ended
  // at its start (a null request is a completed, successful one).
  Request request;
  // The handler of its communicator when it was posted: a failure reported at completion goes
  // there even if the communicator was freed meanwhile.
  MPI_Errhandler errhandler;
  // A receive MPI_Cancel may withdraw: its communicator and the matching engine's id.
  Communicator receive_comm;
  std::uint64_t receive_id = 0;
  bool cancelled = false;  // MPI_Cancel withdrew it
  bool started = false;    // persistent: MPI_Start started a round not reported yet
  // Persistent requests (MPI_*_init): starts one round, filling `request` (and the receive's
  // fields); empty for one-shot requests.
  std::function<void(PendingRequest&)> start;
  // Run by MPI_Wait / MPI_Test when the operation succeeded: unpacks data staged for a derived
  // datatype into the user's buffer (typed_buffer.hpp). Empty when nothing was staged.
  CompletionStep complete;

  bool persistent() const { return static_cast<bool>(start); }
  // Nothing to wait for: a persistent request not started (MPI's inactive request).
  bool inactive() const { return persistent() && !started; }
};

// A message a matched probe took (MPI_Mprobe), until MPI_Mrecv receives it.
struct MessageEntry {
  MatchedMessage message;
  Communicator comm;
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
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

  // MPI_THREAD_MULTIPLE: shares the runtime's loop between threads (Runtime::share_loop()) and
  // makes its lock the lock every MPI call holds (call_guard.hpp).
  void share_between_threads();
  // The loop whose lock MPI calls hold; null unless MPI_THREAD_MULTIPLE was granted or a
  // progress thread runs.
  EventLoop* locked_loop() const { return locked_loop_; }

  // The entry of a valid, non-null communicator handle; throws MpiError(MPI_ERR_COMM).
  CommEntry& comm(MPI_Comm handle);
  // Null when `handle` names no communicator.
  CommEntry* find_comm(MPI_Comm handle);
  MPI_Comm add_comm(Communicator comm, MPI_Errhandler errhandler);
  void remove_comm(MPI_Comm handle);
  // MPI_COMM_WORLD's handler; it outlives MPI_Finalize (calls made after it report there).
  MPI_Errhandler world_errhandler() const;

  MPI_Request add_request(PendingRequest request) { return requests_.add(std::move(request)); }
  // Null when `handle` names no pending request (MPI_REQUEST_NULL included).
  PendingRequest* find_request(MPI_Request handle) { return requests_.find(handle); }
  void remove_request(MPI_Request handle) { requests_.remove(handle); }

  MPI_Message add_message(MessageEntry message) { return messages_.add(std::move(message)); }
  // Null when `handle` names no matched message (MPI_MESSAGE_NULL, MPI_MESSAGE_NO_PROC).
  MessageEntry* find_message(MPI_Message handle) { return messages_.find(handle); }
  void remove_message(MPI_Message handle) { messages_.remove(handle); }

 private:
  Phase phase_ = Phase::kBeforeInit;
  // Owned, but deliberately never destroyed unless MPI_Finalize runs: a program that exits
  // without it must not run a collective finalize from a static destructor.
  Runtime* runtime_ = nullptr;
  EventLoop* locked_loop_ = nullptr;
  std::deque<std::optional<CommEntry>> comms_;  // index = handle's low bits; 0 = MPI_COMM_NULL
  // MPI_COMM_WORLD's entry between initialize and finalize (a deque's elements stay put): the
  // communicator most calls name, found without indexing.
  CommEntry* world_entry_ = nullptr;
  std::vector<std::size_t> free_comms_;
  HandleTable<PendingRequest> requests_{HALYARD_MPI_KIND_REQUEST};  // 0 = MPI_REQUEST_NULL
  // 0 = MPI_MESSAGE_NULL, 1 = MPI_MESSAGE_NO_PROC
  HandleTable<MessageEntry> messages_{HALYARD_MPI_KIND_MESSAGE, 2};
  MPI_Errhandler world_errhandler_ = MPI_ERRORS_ARE_FATAL;  // kept over MPI_Finalize
};

// The one state (inline: every MPI call asks for it several times).
inline ShimState& shim_state() {
  static ShimState state;
  return state;
}

}  // namespace halyard::mpi_shim
