// The receiver-driven rendezvous for payloads above the eager limit.
//
// The sender keeps the payload and announces it (RendezvousRequest). When the runtime calls
// deliver() the receiver either pulls the bytes with fi_read straight into the destination and
// then sends Finish, or (no RMA) posts tagged receives into the destination and sends
// ClearToSend, after which the sender fi_tsend's the data with the receiver's data tags.
// Payloads larger than one provider operation move in chunks.
#include <algorithm>
#include <cstring>
#include <string>

#include <rdma/fi_domain.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

#include "runtime/support/log.hpp"
#include "transports/ofi/ofi_transport_impl.hpp"

namespace halyard::ofi {

RendezvousSend::~RendezvousSend() {
  if (region != nullptr) fi_close(&region->fid);
}

void RendezvousSend::on_completion(OfiTransport& transport, const fi_cq_tagged_entry&,
                                   const Status& result) {
  transport.on_sender_chunk_done(*this, result);
}

void RendezvousReceive::on_completion(OfiTransport& transport, const fi_cq_tagged_entry&,
                                      const Status& result) {
  transport.on_receiver_chunk_done(*this, result);
}

void OfiTransport::start_rendezvous(int peer, const Envelope& env, const void* buf,
                                    Completion done) {
  auto send = std::make_unique<RendezvousSend>();
  send->id = next_send_id_++;
  send->peer = peer;
  send->buffer = static_cast<const std::byte*>(buf);
  send->size = env.size;
  send->done = std::move(done);

  RendezvousRequest request{};
  request.header.kind = FrameKind::kRendezvousRequest;
  request.header.sender = info_.rank;
  request.header.sequence = next_sequence_out_[static_cast<std::size_t>(peer)]++;
  request.envelope = env;
  request.send_id = send->id;
  if (fabric_.has_rma() && settings_.rma != RmaPolicy::kOff) {
    // Keys must be unique in our domain when the provider does not choose them; send ids are.
    const std::uint64_t requested_key = fabric_.provider_keys() ? 0 : send->id;
    int rc = fi_mr_reg(fabric_.domain(), buf, env.size, FI_REMOTE_READ, 0, requested_key, 0,
                       &send->region, nullptr);
    if (rc == 0) {
      request.readable = 1;
      request.remote_key = fi_mr_key(send->region);
      request.remote_addr =
          fabric_.virtual_addressing() ? reinterpret_cast<std::uintptr_t>(buf) : 0;
    } else {
      // Still correct without RMA: the receiver will ask for the data with ClearToSend.
      send->region = nullptr;
      log::debug("ofi: fi_mr_reg of {} bytes failed ({}); sending by clear-to-send", env.size,
                 error_text(rc));
    }
  }
  const std::uint64_t id = send->id;
  rendezvous_sends_.emplace(id, std::move(send));
  send_frame(peer, &request, sizeof request, nullptr, 0, [this, id](const Status& status) {
    if (!status.ok()) finish_rendezvous_send(id, status);
  });
}

void OfiTransport::deliver_rendezvous(const RendezvousRequest& request, void* dst,
                                      std::size_t capacity, Completion done) {
  if (withdrawn_.erase({request.header.sender, request.send_id}) > 0) {
    complete_later(std::move(done),
                   Status::failure(ErrorCode::kCancelled,
                                   "ofi: rank " + std::to_string(request.header.sender) +
                                       " withdrew this message: its send failed"));
    return;
  }
  const std::size_t size = request.envelope.size;
  const std::size_t wanted = std::min(size, capacity);
  auto receive = std::make_unique<RendezvousReceive>();
  receive->id = next_rendezvous_id_++;
  receive->peer = request.header.sender;
  receive->send_id = request.send_id;
  receive->by_read = request.readable != 0;
  receive->done = std::move(done);
  receive->status.bytes = wanted;
  if (capacity < size) receive->status = truncation_status(size, capacity);

  // Tags number at most kMaxChunks chunks, so a tiny chunk setting grows for huge messages.
  const std::size_t chunk =
      std::max(chunk_size(), static_cast<std::size_t>((wanted + kMaxChunks - 1) / kMaxChunks));
  const std::size_t chunks = chunk_count(wanted, chunk);
  receive->prepare_chunks(chunks);

  // Copies: if every post fails at once, `state` is gone before the loop below ends.
  RendezvousReceive* state = receive.get();
  const int peer = state->peer;
  const std::uint64_t id = state->id;
  const std::uint64_t send_id = state->send_id;
  const bool by_read = state->by_read;
  rendezvous_receives_.emplace(id, std::move(receive));
  auto* destination = static_cast<std::byte*>(dst);
  const fi_addr_t source = address_of(peer);
  auto fail = [this, state, peer](ssize_t rc) {
    on_receiver_chunk_done(
        *state, Status::failure(ErrorCode::kTransport,
                                "ofi: posting a rendezvous transfer from rank " +
                                    std::to_string(peer) + " failed: " + error_text(rc)));
  };

  if (by_read) {
    for (std::size_t i = 0; i < chunks; ++i) {
      const std::size_t offset = i * chunk;
      const std::size_t length = std::min(chunk, wanted - offset);
      const std::uint64_t remote = request.remote_addr + offset;
      const std::uint64_t key = request.remote_key;
      void* context = &state->chunks[i].scratch;
      post(
          [this, state, destination, offset, length, source, remote, key, context]() -> ssize_t {
            if (state->cancelled) return -FI_ECANCELED;
            return fi_read(endpoint(), destination + offset, length, nullptr, source, remote, key,
                           context);
          },
          fail, peer);
    }
  } else {
    for (std::size_t i = 0; i < chunks; ++i) {
      const std::size_t offset = i * chunk;
      const std::size_t length = std::min(chunk, wanted - offset);
      const std::uint64_t tag = data_tag(id, i);
      void* context = &state->chunks[i].scratch;
      post(
          [this, state, destination, offset, length, tag, context]() -> ssize_t {
            if (state->cancelled) return -FI_ECANCELED;
            return fi_trecv(endpoint(), destination + offset, length, nullptr, FI_ADDR_UNSPEC, tag,
                            0, context);
          },
          fail, peer);
    }
    // The receives are posted (or queued ahead of this frame), so the data cannot arrive first.
    ClearToSend clear{};
    clear.header.kind = FrameKind::kClearToSend;
    clear.header.sender = info_.rank;
    clear.send_id = send_id;
    clear.rendezvous_id = id;
    clear.bytes = wanted;
    clear.chunk_size = chunk;
    send_frame(peer, &clear, sizeof clear, nullptr, 0, {});
  }
  if (chunks == 0) {
    // Nothing to move (an empty destination): the handshake frame alone finishes both sides.
    state->outstanding = 1;
    on_receiver_chunk_done(*state, Status{});
  }
}

void OfiTransport::on_receiver_chunk_done(RendezvousReceive& receive, const Status& status) {
  record_failure(receive.status, status);
  if (--receive.outstanding > 0) return;
  if (receive.by_read) {
    Finish finish{};
    finish.header.kind = FrameKind::kFinish;
    finish.header.sender = info_.rank;
    finish.header.failed = !receive.status.ok() && receive.status.code != ErrorCode::kTruncated
                               ? kFinishFailed
                               : kFinishRead;
    finish.send_id = receive.send_id;
    send_frame(receive.peer, &finish, sizeof finish, nullptr, 0, {});
  }
  auto node = rendezvous_receives_.extract(receive.id);
  complete_later(std::move(node.mapped()->done), std::move(node.mapped()->status));
}

void OfiTransport::on_clear_to_send(const ClearToSend& frame) {
  auto it = rendezvous_sends_.find(frame.send_id);
  if (it == rendezvous_sends_.end() || !it->second->chunks.empty()) {
    log::error("ofi: clear-to-send for unknown rendezvous send {}", frame.send_id);
    return;
  }
  RendezvousSend& send = *it->second;
  const std::size_t bytes = std::min<std::size_t>(frame.bytes, send.size);
  const std::size_t chunk = std::max<std::size_t>(frame.chunk_size, 1);
  const std::size_t chunks = chunk_count(bytes, chunk);
  if (chunks == 0) {
    finish_rendezvous_send(send.id, Status{});
    return;
  }
  send.prepare_chunks(chunks);
  const fi_addr_t destination = address_of(send.peer);
  for (std::size_t i = 0; i < chunks; ++i) {
    const std::size_t offset = i * chunk;
    const std::size_t length = std::min(chunk, bytes - offset);
    const std::byte* data = send.buffer + offset;
    const std::uint64_t tag = data_tag(frame.rendezvous_id, i);
    void* context = &send.chunks[i].scratch;
    RendezvousSend* state = &send;
    post(
        [this, data, length, destination, tag, context]() -> ssize_t {
          return fi_tsend(endpoint(), data, length, nullptr, destination, tag, context);
        },
        [this, state](ssize_t rc) {
          on_sender_chunk_done(*state, Status::failure(ErrorCode::kTransport,
                                                       "ofi: sending rendezvous data to rank " +
                                                           std::to_string(state->peer) +
                                                           " failed: " + error_text(rc)));
        },
        send.peer);
  }
}

void OfiTransport::on_sender_chunk_done(RendezvousSend& send, const Status& status) {
  record_failure(send.status, status);
  if (--send.outstanding > 0) return;
  finish_rendezvous_send(send.id, send.status);
}

void OfiTransport::on_finish(const Finish& frame) {
  Status status;
  if (frame.header.failed == kFinishWithdrawn) {
    // A real Finish may have come first (the read ended as the Withdraw went out).
    if (rendezvous_sends_.count(frame.send_id) == 0) return;
    status = Status::failure(ErrorCode::kCancelled,
                             "ofi: send withdrawn after the process failed; rank " +
                                 std::to_string(frame.header.sender) + " had not begun to read it");
  } else if (frame.header.failed != kFinishRead) {
    status =
        Status::failure(ErrorCode::kTransport, "ofi: rank " + std::to_string(frame.header.sender) +
                                                   " could not read the message data");
  }
  finish_rendezvous_send(frame.send_id, std::move(status));
}

void OfiTransport::finish_rendezvous_send(std::uint64_t send_id, Status status) {
  auto node = rendezvous_sends_.extract(send_id);
  if (node.empty()) {
    log::error("ofi: completion for unknown rendezvous send {}", send_id);
    return;
  }
  if (status.ok()) status.bytes = node.mapped()->size;
  complete_later(std::move(node.mapped()->done), std::move(status));
}

void OfiTransport::withdraw_sends() {
  for (const auto& [id, send] : rendezvous_sends_) {
    // Streaming on the receiver's clear-to-send: ends with its own completions.
    if (!send->chunks.empty()) continue;
    Withdraw withdraw{};
    withdraw.header.kind = FrameKind::kWithdraw;
    withdraw.header.sender = info_.rank;
    withdraw.header.sequence = next_sequence_out_[static_cast<std::size_t>(send->peer)]++;
    withdraw.send_id = id;
    send_frame(send->peer, &withdraw, sizeof withdraw, nullptr, 0, {});
    withdraw_deadline_ = std::chrono::steady_clock::now() + kWithdrawGrace;
  }
}

int OfiTransport::end_unanswered_withdrawals() {
  if (!withdraw_deadline_ || std::chrono::steady_clock::now() < *withdraw_deadline_) return 0;
  withdraw_deadline_.reset();
  std::vector<std::uint64_t> unanswered;
  for (const auto& [id, send] : rendezvous_sends_) {
    if (send->chunks.empty()) unanswered.push_back(id);
  }
  for (std::uint64_t id : unanswered) {
    RendezvousSend& send = *rendezvous_sends_.at(id);
    // The receiver ended without answering, or is too busy to: closing the registration makes
    // its reads fail from now on, so the buffer is quiet without its help.
    if (send.region != nullptr) fi_close(&send.region->fid);
    send.region = nullptr;
    finish_rendezvous_send(
        id, Status::failure(ErrorCode::kCancelled,
                            "ofi: send withdrawn after the process failed; rank " +
                                std::to_string(send.peer) + " did not answer, its access closed"));
  }
  return static_cast<int>(unanswered.size());
}

void OfiTransport::answer_withdraw(int sender, std::uint64_t send_id) {
  const bool reading =
      std::any_of(rendezvous_receives_.begin(), rendezvous_receives_.end(), [&](const auto& entry) {
        return entry.second->peer == sender && entry.second->send_id == send_id;
      });
  // A transfer under way answers with its own Finish (reads) or the sender's completions
  // (clear-to-send) when it ends.
  if (reading) return;
  // Not begun (announced, or not matched yet), or already finished: it never begins now.
  withdrawn_.insert({sender, send_id});
  answer_withdrawn(sender, send_id);
}

void OfiTransport::answer_withdrawn(int sender, std::uint64_t send_id) {
  Finish finish{};
  finish.header.kind = FrameKind::kFinish;
  finish.header.sender = info_.rank;
  finish.header.failed = kFinishWithdrawn;
  finish.send_id = send_id;
  send_frame(sender, &finish, sizeof finish, nullptr, 0, {});
}

void OfiTransport::peer_failed(int peer) {
  // Operations for the dead rank would meet -FI_EAGAIN forever at the head of the queue and
  // hold back everything behind them (answers to live peers included): end those queued, and
  // fail those posted from now on (post()).
  dead_peers_.insert(peer);
  std::deque<Backlogged> kept, dropped;
  for (Backlogged& item : backlog_) (item.peer == peer ? dropped : kept).push_back(std::move(item));
  backlog_ = std::move(kept);
  for (Backlogged& item : dropped) item.fail(-FI_ECANCELED);
  for (auto& [id, receive] : rendezvous_receives_) {
    if (receive->peer != peer) continue;
    receive->cancelled = true;
    if (receive->by_read) continue;
    // Chunks already complete answer -FI_ENOENT and are counted already.
    for (OpContext& chunk : receive->chunks) fi_cancel(&endpoint()->fid, &chunk.scratch);
  }
}

}  // namespace halyard::ofi
