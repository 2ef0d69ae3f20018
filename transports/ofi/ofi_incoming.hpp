// The messages the ofi transport announces to the runtime (IncomingMessage implementations).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "runtime/transport.hpp"
#include "transports/ofi/ofi_wire.hpp"

namespace halyard::ofi {

class OfiTransport;

// An eager message: the payload came with the envelope. While the runtime's handler runs it
// still points into the frame buffer; if the handler keeps it for later (the usual case: the
// runtime delivers from its loop), the message takes a copy of a small payload, or adopts the
// whole frame buffer of a large one (the slot gets a spare), so large payloads are copied only
// once, into the destination.
class EagerIncoming final : public IncomingMessage {
 public:
  EagerIncoming(const Envelope& envelope, const std::byte* payload, OfiTransport& transport,
                EagerIncoming** lender_slot);
  ~EagerIncoming() override;
  void deliver(void* dst, std::size_t capacity, Completion done) override;
  std::optional<Status> deliver_now(void* dst, std::size_t capacity) override;
  // While announced it reads the lent frame buffer; `done` is queued for a later progress().
  bool deliverable_while_announced() const override { return true; }
  // Copies the payload out of the frame buffer, which is about to be reused.
  void take_ownership();
  // Takes the frame buffer itself; the payload starts at `offset`.
  void adopt(std::vector<std::byte> frame_buffer, std::size_t offset);

 private:
  // Copies the payload into `dst` and gives the frame buffer back; the receive's status.
  Status copy_out(void* dst, std::size_t capacity);

  void stop_borrowing();

  const std::byte* borrowed_;
  std::vector<std::byte> owned_;
  std::size_t owned_offset_ = 0;
  bool adopted_ = false;  // owned_ is a frame buffer, to be recycled after delivery
  OfiTransport& transport_;
  EagerIncoming** lender_slot_;  // the transport's pointer to us while we borrow
  bool delivered_ = false;
};

// A rendezvous request: the payload waits at the sender until deliver() pulls it.
class RendezvousIncoming final : public IncomingMessage {
 public:
  RendezvousIncoming(const RendezvousRequest& request, OfiTransport& transport)
      : IncomingMessage(request.envelope), request_(request), transport_(transport) {}
  void deliver(void* dst, std::size_t capacity, Completion done) override;
  void decline() override;

 private:
  RendezvousRequest request_;
  OfiTransport& transport_;
  bool delivered_ = false;
};

}  // namespace halyard::ofi
