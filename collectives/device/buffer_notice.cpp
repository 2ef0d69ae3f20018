#include "collectives/device/buffer_notice.hpp"

#include <string>

#include "collectives/device/device_step_machine.hpp"
#include "runtime/event_loop.hpp"

namespace halyard::device {

namespace {

Status mixed_memory(const char* operation, int peer) {
  return Status::failure(ErrorCode::kInvalidArgument,
                         std::string(operation) + ": node rank " + std::to_string(peer) +
                             " passed host buffers while this rank passed CUDA device buffers; "
                             "mixed host/device buffers across ranks are not supported");
}

}  // namespace

Request receive_notice(const Communicator& comm, int peer, int tag, BufferNotice& notice,
                       std::size_t expected_bytes, const char* operation) {
  Request checked = Request::make_pending(comm.loop());
  notice.magic = 0;  // so that is_from_device_rank() is false unless a notice arrives
  BufferNotice* into = &notice;
  comm.irecv_internal(
      peer, tag, into, sizeof(BufferNotice),
      [checked, into, peer, expected_bytes, operation](const Status& status) {
        if (status.code == ErrorCode::kTruncated ||
            (status.ok() &&
             (status.bytes != sizeof(BufferNotice) || into->magic != BufferNotice::kMagic))) {
          into->magic = 0;  // host data, whatever its first bytes
          checked.complete(mixed_memory(operation, peer));
        } else if (!status.ok()) {
          checked.complete(status);
        } else if (into->ok == 0) {
          checked.complete(peer_failed(operation, peer));
        } else if (into->bytes != expected_bytes) {
          checked.complete(Status::failure(
              ErrorCode::kInvalidArgument,
              std::string(operation) + ": node rank " + std::to_string(peer) + " passed " +
                  std::to_string(into->bytes) + " bytes where this rank passed " +
                  std::to_string(expected_bytes) + ": ranks passed different counts"));
        } else {
          checked.complete(Status{});
        }
      });
  return checked;
}

}  // namespace halyard::device
