#include "transports/ofi/ofi_incoming.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "runtime/support/copy_bytes.hpp"
#include "runtime/support/error.hpp"
#include "transports/ofi/ofi_transport_impl.hpp"

namespace halyard::ofi {

Status truncation_status(std::size_t message_size, std::size_t capacity) {
  Status status =
      Status::failure(ErrorCode::kTruncated, "message of " + std::to_string(message_size) +
                                                 " bytes truncated to the " +
                                                 std::to_string(capacity) + "-byte receive buffer");
  status.bytes = capacity;
  return status;
}

namespace {

void reject_second_delivery(bool& delivered) {
  if (delivered)
    throw Error(ErrorCode::kInvalidArgument, "IncomingMessage::deliver() called twice");
  delivered = true;
}

void check_destination(const void* dst, std::size_t capacity) {
  if (dst == nullptr && capacity > 0) {
    throw Error(
        ErrorCode::kInvalidArgument,
        "IncomingMessage::deliver(): dst is null but capacity is " + std::to_string(capacity));
  }
}

}  // namespace

EagerIncoming::EagerIncoming(const Envelope& envelope, const std::byte* payload,
                             OfiTransport& transport, EagerIncoming** lender_slot)
    : IncomingMessage(envelope),
      borrowed_(payload),
      transport_(transport),
      lender_slot_(lender_slot) {}

EagerIncoming::~EagerIncoming() {
  stop_borrowing();
}

void EagerIncoming::stop_borrowing() {
  if (lender_slot_ != nullptr && *lender_slot_ == this) *lender_slot_ = nullptr;
  lender_slot_ = nullptr;
  borrowed_ = nullptr;
}

void EagerIncoming::take_ownership() {
  const std::size_t size = envelope().size;
  if (borrowed_ != nullptr) owned_.assign(borrowed_, borrowed_ + size);
  stop_borrowing();
}

void EagerIncoming::adopt(std::vector<std::byte> frame_buffer, std::size_t offset) {
  owned_ = std::move(frame_buffer);
  owned_offset_ = offset;
  adopted_ = true;
  stop_borrowing();
}

void EagerIncoming::deliver(void* dst, std::size_t capacity, Completion done) {
  Status status = copy_out(dst, capacity);
  transport_.complete_later(std::move(done), std::move(status));
}

std::optional<Status> EagerIncoming::deliver_now(void* dst, std::size_t capacity) {
  return copy_out(dst, capacity);
}

Status EagerIncoming::copy_out(void* dst, std::size_t capacity) {
  reject_second_delivery(delivered_);
  check_destination(dst, capacity);
  const std::size_t size = envelope().size;
  const std::byte* source = borrowed_ != nullptr ? borrowed_ : owned_.data() + owned_offset_;
  const std::size_t copied = std::min(size, capacity);
  if (copied > 0) copy_bytes(dst, source, copied);
  stop_borrowing();
  if (adopted_) {
    adopted_ = false;
    transport_.recycle_frame_buffer(std::move(owned_));
  }
  owned_ = {};

  Status status;
  status.bytes = copied;
  if (capacity < size) status = truncation_status(size, capacity);
  return status;
}

void RendezvousIncoming::deliver(void* dst, std::size_t capacity, Completion done) {
  reject_second_delivery(delivered_);
  check_destination(dst, capacity);
  transport_.deliver_rendezvous(request_, dst, capacity, std::move(done));
}

void RendezvousIncoming::decline() {
  if (delivered_) return;
  delivered_ = true;
  transport_.answer_withdrawn(request_.header.sender, request_.send_id);
}

}  // namespace halyard::ofi
