#include "collectives/device/device_step_machine.hpp"

#include <string>
#include <utility>

#include "runtime/event_loop.hpp"

namespace halyard::device {

void DeviceStepMachine::await_outcome(const Request& work) {
  // The step waits for a request that always succeeds; the machine is alive until it does
  // (await keeps it), so the raw pointer is safe.
  Request shield = Request::make_pending(comm().loop());
  DeviceStepMachine* self = this;
  work.on_complete([self, shield](const Status& status) {
    if (!status.ok()) self->fail_locally(status);
    shield.complete(Status{});
  });
  await(shield);
}

void DeviceStepMachine::fail_locally(Status status) {
  if (outcome_.ok()) outcome_ = std::move(status);
}

Status peer_failed(const char* operation, int rank) {
  return Status::failure(ErrorCode::kTransport, std::string(operation) + ": node rank " +
                                                    std::to_string(rank) +
                                                    " failed its part (its own error says why)");
}

}  // namespace halyard::device
