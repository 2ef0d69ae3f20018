// Receiving frames: the pre-posted frame buffers, dispatch by frame kind, per-sender order,
// and the announcement of eager messages and rendezvous requests to the runtime.
#include <algorithm>
#include <cstring>
#include <utility>

#include <rdma/fi_tagged.h>

#include "runtime/support/log.hpp"
#include "transports/ofi/ofi_incoming.hpp"
#include "transports/ofi/ofi_transport_impl.hpp"

namespace halyard::ofi {

void OfiTransport::post_frame_receive(FrameSlot& slot) {
  post(
      [this, &slot]() -> ssize_t {
        return fi_trecv(endpoint(), slot.bytes.data(), slot.bytes.size(), nullptr, FI_ADDR_UNSPEC,
                        kFrameTag, 0, &slot.context.scratch);
      },
      [](ssize_t rc) { log::error("ofi: posting a frame receive failed: {}", error_text(rc)); });
}

void OfiTransport::repost_frame_receives() {
  for (FrameSlot* slot : frames_to_repost_) post_frame_receive(*slot);
  frames_to_repost_.clear();
}

void FrameSlot::on_completion(OfiTransport& transport, const fi_cq_tagged_entry& entry,
                              const Status& status) {
  transport.on_frame(*this, entry.len, status);
}

void OfiTransport::on_frame(FrameSlot& slot, std::size_t length, const Status& status) {
  if (!status.ok()) {
    log::error("ofi: a frame receive failed: {}", status.message);
  } else if (length < sizeof(FrameHeader)) {
    log::error("ofi: dropped a {}-byte frame (too short)", length);
  } else {
    FrameHeader header;
    std::memcpy(&header, slot.bytes.data(), sizeof header);
    switch (header.kind) {
      case FrameKind::kEager:
      case FrameKind::kRendezvousRequest:
      case FrameKind::kWithdraw:
        dispatch_in_order(header.sender, slot.bytes.data(), length, &slot);
        break;
      case FrameKind::kClearToSend: {
        ClearToSend frame;
        std::memcpy(&frame, slot.bytes.data(), std::min(length, sizeof frame));
        on_clear_to_send(frame);
        break;
      }
      case FrameKind::kFinish: {
        Finish frame;
        std::memcpy(&frame, slot.bytes.data(), std::min(length, sizeof frame));
        on_finish(frame);
        break;
      }
      default:
        log::error("ofi: dropped a frame of unknown kind {}", static_cast<int>(header.kind));
    }
  }
  // Posted again at the start of the next progress pass, not here: fi_trecv costs ofi_rxm
  // 0.1-0.2 us, which here would lie between a message's arrival and the application's reply
  // (8-byte ping-pong over tcp;ofi_rxm: 5.0 -> 4.8 us one way). Meanwhile the provider keeps
  // arrivals for us as unexpected messages.
  frames_to_repost_.push_back(&slot);
}

void OfiTransport::dispatch_in_order(int sender, const std::byte* data, std::size_t length,
                                     FrameSlot* slot) {
  if (sender < 0 || sender >= info_.size) {
    log::error("ofi: dropped a frame from unknown rank {}", sender);
    return;
  }
  const auto peer = static_cast<std::size_t>(sender);
  FrameHeader header;
  std::memcpy(&header, data, sizeof header);
  if (header.sequence != next_sequence_in_[peer]) {
    // It overtook an earlier frame (a provider without send-after-send order): hold it back.
    early_frames_[peer].emplace(header.sequence, std::vector<std::byte>(data, data + length));
    return;
  }
  announce(data, length, slot);
  ++next_sequence_in_[peer];
  auto& early = early_frames_[peer];
  while (!early.empty() && early.begin()->first == next_sequence_in_[peer]) {
    auto node = early.extract(early.begin());
    announce(node.mapped().data(), node.mapped().size(), nullptr);
    ++next_sequence_in_[peer];
  }
}

void OfiTransport::announce(const std::byte* data, std::size_t length, FrameSlot* slot) {
  FrameHeader header;
  std::memcpy(&header, data, sizeof header);
  if (!handler_) {
    log::error("ofi: a message arrived before set_incoming_handler(); dropped");
    return;
  }
  if (header.kind == FrameKind::kWithdraw) {
    Withdraw withdraw;
    std::memcpy(&withdraw, data, std::min(length, sizeof withdraw));
    answer_withdraw(header.sender, withdraw.send_id);
    return;
  }
  if (header.kind == FrameKind::kRendezvousRequest) {
    RendezvousRequest request;
    std::memcpy(&request, data, std::min(length, sizeof request));
    handler_(std::make_unique<RendezvousIncoming>(request, *this));
    return;
  }
  EagerFrame frame;
  std::memcpy(&frame, data, sizeof frame);
  if (length - sizeof frame != frame.envelope.size) {
    log::error("ofi: dropped an eager frame from rank {}: {} payload bytes, envelope says {}",
               header.sender, length - sizeof frame, frame.envelope.size);
    return;
  }
  // A receive already posted takes the payload straight from the frame buffer.
  if (matcher_ != nullptr &&
      matcher_->offer_eager(frame.envelope, {data + sizeof frame, frame.envelope.size})) {
    return;
  }
  // Lend the frame buffer while the handler runs; take a copy if the runtime keeps the message.
  EagerIncoming* outer = lending_;
  auto message =
      std::make_unique<EagerIncoming>(frame.envelope, data + sizeof frame, *this, &lending_);
  lending_ = message.get();
  handler_(std::move(message));
  if (lending_ != nullptr) {
    // Kept for later. Copying a small payload is cheap; a large one takes the buffer instead
    // (the slot gets a spare), so its bytes are copied once, into the destination.
    if (slot != nullptr && frame.envelope.size > settings_.eager_limit / 4) {
      std::vector<std::byte> replacement;
      if (!spare_buffers_.empty()) {
        replacement = std::move(spare_buffers_.back());
        spare_buffers_.pop_back();
      } else {
        replacement.resize(frame_capacity_);
      }
      lending_->adopt(std::exchange(slot->bytes, std::move(replacement)), sizeof frame);
    } else {
      lending_->take_ownership();
    }
  }
  lending_ = outer;
}

void OfiTransport::recycle_frame_buffer(std::vector<std::byte> buffer) {
  // Keep as many spares as there are slots: enough for a burst, bounded memory afterwards.
  if (buffer.size() == frame_capacity_ && spare_buffers_.size() < slots_.size()) {
    spare_buffers_.push_back(std::move(buffer));
  }
}

}  // namespace halyard::ofi
