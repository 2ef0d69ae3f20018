// DeviceStepMachine: the StepMachine of the device operations inside a node, which keep talking
// to their peers after a local failure. A peer that waits for this rank's notice or token would
// otherwise wait forever when an export, a mapping or device work fails here. So a local
// failure becomes this rank's outcome instead of stopping the machine: the machine still sends
// its notices and tokens, with a flag that says "failed", and fails its request at the end.
// Peers that see such a flag fail too, naming the rank.
#pragma once

#include <string>

#include "collectives/base/step_machine.hpp"
#include "runtime/error.hpp"
#include "runtime/request.hpp"

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
    if (!outcome_.ok()) return;
    try {
      action();
    } catch (const Error& e) {
      fail_locally(Status::failure(e.code(), e.what()));
    }
  }

  // Counts `work` as an operation of the step; its failure becomes the outcome.
  void await_outcome(const Request& work);

  // Records the first local failure.
  void fail_locally(Status status);

  const Status& outcome() const { return outcome_; }
  unsigned char token() const { return outcome_.ok() ? kTokenOk : kTokenFailed; }

  // The last step: throws the outcome if it is a failure (the machine then fails its request).
  void finish_with_outcome() const { outcome_.raise_if_failed(); }

 private:
  Status outcome_;
};

// "iallreduce: node rank 2 failed its part (its own error says why)".
Status peer_failed(const char* operation, int rank);

}  // namespace halyard::device
