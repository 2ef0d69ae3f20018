#include "collectives/device/device_step_machine.hpp"

#include <string>

namespace halyard::device {

Status peer_failed(const char* operation, int rank) {
  return Status::failure(ErrorCode::kTransport, std::string(operation) + ": node rank " +
                                                    std::to_string(rank) +
                                                    " failed its part (its own error says why)");
}

}  // namespace halyard::device
