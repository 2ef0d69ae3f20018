// DeviceStepMachine: the StepMachine of the device operations inside a node, which keep talking
// to their peers after a local failure. A peer that waits for this rank's notice or token would
// otherwise wait forever when an export, a mapping or device work fails here. So a local
// failure becomes this rank's outcome instead of stopping the machine: the machine still sends
// its notices and tokens, with a flag that says "failed", and fails its request at the end.
// Peers that see such a flag fail too, naming the rank. The local failure is the engine's
// recorded failure (record_failure(), collectives/core/collective_engine.hpp): the request
// completes with it once the last step has drained.
#pragma once

#include <string>
#include <vector>

#include "collectives/base/step_machine.hpp"
#include "runtime/device_support.hpp"
#include "runtime/request.hpp"
#include "runtime/support/error.hpp"

namespace halyard::device {

// The byte a rank sends as a token: whether its part went well.
inline constexpr unsigned char kTokenOk = 1;
inline constexpr unsigned char kTokenFailed = 0;

class DeviceStepMachine : public base::StepMachine {
 protected:
  using StepMachine::StepMachine;

  // Runs `action` unless this rank already failed; an Error it throws becomes the outcome.
  template <class Action>
  void attempt(Action&& action) {
    if (failed()) return;
    try {
      action();
    } catch (const Error& e) {
      record_failure(Status::failure(e.code(), e.what()));
    }
  }

  // Counts `work` as an operation of the step; its failure becomes the outcome.
  void await_outcome(const Request& work) { await(work, OnFailure::kRecordFailure); }

  unsigned char token() const { return failed() ? kTokenFailed : kTokenOk; }

  // The address of a peer's buffer that `support` mapped, kept mapped until this machine goes:
  // the machine outlives every copy and kernel it awaited, so the mapping cache cannot unmap it
  // under them (it may drop its own entry meanwhile).
  void* map_peer(DeviceSupport& support, int world_rank, const DeviceBufferExport& exported) {
    held_mappings_.push_back(support.map_peer_buffer(world_rank, exported));
    return held_mappings_.back().get();
  }

 private:
  std::vector<PeerMapping> held_mappings_;
};

// "iallreduce: node rank 2 failed its part (its own error says why)".
Status peer_failed(const char* operation, int rank);

}  // namespace halyard::device
