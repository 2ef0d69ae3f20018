// The receive side of the shm transport: polling the rings of every local sender, announcing
// arrivals to the runtime, and the two ways a rendezvous payload is pulled (CMA single copy,
// or the staged copy-in/copy-out fallback).
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "runtime/support/cma_copy.hpp"
#include "runtime/support/copy_bytes.hpp"
#include "runtime/support/error.hpp"
#include "runtime/support/log.hpp"
#include "runtime/support/pooled.hpp"
#include "transports/shm/shm_transport_impl.hpp"

namespace halyard::shm {

// An eager arrival. While the runtime's handler runs, the payload is still in the ring, so a
// receive that is already posted gets it with one copy; if the handler keeps the message for
// later (unexpected), detach() copies the payload out so that the ring cells can be reused.
class EagerIncoming final : public IncomingMessage, public Pooled<EagerIncoming> {
 public:
  EagerIncoming(ShmTransport* owner, const SpscCellRing* ring, std::uint64_t first,
                const Envelope& env)
      : IncomingMessage(env), owner_(owner), ring_(ring), first_(first) {}
  ~EagerIncoming() override {
    if (ring_ != nullptr) owner_->forget_announcing(this);
  }

  void deliver(void* dst, std::size_t capacity, Completion done) override {
    Status status = copy_out(dst, capacity);
    owner_->defer(std::move(done), std::move(status));
  }

  std::optional<Status> deliver_now(void* dst, std::size_t capacity) override {
    return copy_out(dst, capacity);
  }

  // deliver() inside the handler reads the ring directly; after it, from the copy.
  bool deliverable_while_announced() const override { return true; }

  // The handler returned: from now on the payload must not be read from the ring.
  void detach() {
    if (!delivered_) {
      copy_.resize(envelope().size);
      if (!copy_.empty()) ring_->read(first_, sizeof(CellHeader), copy_.data(), copy_.size());
    }
    ring_ = nullptr;
  }

 private:
  Status copy_out(void* dst, std::size_t capacity) {
    if (delivered_) throw Error(ErrorCode::kInvalidArgument, "shm: deliver() called twice");
    std::size_t size = envelope().size;
    std::size_t n = std::min(capacity, size);
    if (n > 0 && dst == nullptr) {
      throw Error(ErrorCode::kInvalidArgument,
                  "shm: deliver() dst is null with capacity " + std::to_string(capacity));
    }
    delivered_ = true;
    if (n > 0) {
      if (ring_ != nullptr) {
        ring_->read(first_, sizeof(CellHeader), dst, n);
      } else {
        copy_bytes(dst, copy_.data(), n);
      }
    }
    copy_ = {};
    return ShmTransport::receive_status(n, size);
  }

  ShmTransport* owner_;
  const SpscCellRing* ring_;  // non-null only while announced and not detached
  std::uint64_t first_;
  bool delivered_ = false;
  std::vector<std::byte> copy_;
};

// A rendezvous announcement: the payload is still in the sender's buffer.
class RendezvousIncoming final : public IncomingMessage {
 public:
  RendezvousIncoming(ShmTransport* owner, int peer_local, const Envelope& env,
                     const RendezvousRequest& request)
      : IncomingMessage(env), owner_(owner), peer_local_(peer_local), request_(request) {}

  void deliver(void* dst, std::size_t capacity, Completion done) override {
    if (delivered_) throw Error(ErrorCode::kInvalidArgument, "shm: deliver() called twice");
    delivered_ = true;
    owner_->start_pull(peer_local_, envelope(), request_, static_cast<std::byte*>(dst), capacity,
                       std::move(done));
  }

  void decline() override {
    if (delivered_) return;
    delivered_ = true;
    owner_->answer_withdrawn(peer_local_, request_.id);
  }

 private:
  ShmTransport* owner_;
  int peer_local_;
  RendezvousRequest request_;
  bool delivered_ = false;
};

Status ShmTransport::receive_status(std::size_t bytes, std::size_t size) {
  if (bytes < size) {
    Status s =
        Status::failure(ErrorCode::kTruncated, "shm: message of " + std::to_string(size) +
                                                   " bytes truncated to the " +
                                                   std::to_string(bytes) + "-byte receive buffer");
    s.bytes = bytes;
    return s;
  }
  Status ok;
  ok.bytes = size;
  return ok;
}

void ShmTransport::forget_announcing(const EagerIncoming* message) {
  if (announcing_ == message) announcing_ = nullptr;
}

int ShmTransport::poll_rings() {
  if (!handler_) return 0;  // nothing may be announced before the runtime listens
  int events = 0;
  for (Peer& p : peers_) {
    // A bounded batch per sender per pass keeps one busy sender from starving the others.
    if (!p.in.message_ready()) continue;  // the common case, without handle_message's frame
    const int q = static_cast<int>(&p - peers_.data());
    int handled = 0;
    while (handled < static_cast<int>(p.in.cell_count()) && handle_message(q, p)) {
      ++handled;
    }
    if (handled > 0) {
      // Its sender may be waiting for the room we just freed; the wake-up check waits for the
      // end of the pass (see wake_room_waiters).
      p.owes_room_poke = true;
      ++owed_room_pokes_;
    }
    events += handled;
  }
  return events;
}

bool ShmTransport::handle_message(int peer_local, Peer& peer) {
  if (!peer.in.message_ready()) return false;
  if (!peer.rings_populated) [[unlikely]]
    populate_rings(peer);
  std::uint64_t first = peer.in.read_position();
  CellHeader header;
  // A header never wraps: a message starts at a cell and cells hold at least 128 bytes.
  std::memcpy(&header, peer.in.cell(first), sizeof header);
  switch (header.kind) {
    case CellKind::kEager: {
      std::uint32_t cells = cells_for_payload(header.envelope.size, peer.in.cell_size());
      if (matcher_ != nullptr) {
        // A receive already posted takes the payload straight from the ring.
        auto p = peer.in.pieces(first, sizeof(CellHeader), header.envelope.size);
        if (matcher_->offer_eager(header.envelope,
                                  {p.first, p.first_bytes, p.second, p.second_bytes})) {
          peer.in.release_message(cells);
          return true;
        }
      }
      auto message = std::make_unique<EagerIncoming>(this, &peer.in, first, header.envelope);
      EagerIncoming* raw = message.get();
      announcing_ = raw;
      handler_(std::move(message));
      if (announcing_ == raw) raw->detach();
      announcing_ = nullptr;
      peer.in.release_message(cells);
      return true;
    }
    case CellKind::kRendezvousRequest: {
      RendezvousRequest request;
      peer.in.read(first, sizeof(CellHeader), &request, sizeof request);
      peer.in.release_message(1);
      handler_(std::make_unique<RendezvousIncoming>(this, peer_local, header.envelope, request));
      return true;
    }
    case CellKind::kPullDone: {
      PullDone fin;
      peer.in.read(first, sizeof(CellHeader), &fin, sizeof fin);
      peer.in.release_message(1);
      Status status;
      // The answer to a send that the withdrawal completed already (it ended its receiver's
      // part before the receiver's answer came through the ring).
      if (withdrew_ && outstanding_.count(fin.id) == 0) return true;
      if (fin.failed == kPullWithdrawn) {
        // A real PullDone may have come first (the read ended as the Withdraw went out).
        if (outstanding_.count(fin.id)) {
          finish_outstanding(fin.id, Status::failure(ErrorCode::kCancelled,
                                                     "shm: send withdrawn after the process "
                                                     "failed; rank " +
                                                         std::to_string(peer.world_rank) +
                                                         " had not begun to read it"));
        }
        return true;
      }
      if (fin.failed != kPullRead) {
        status = Status::failure(ErrorCode::kTransport,
                                 "shm: rank " + std::to_string(peer.world_rank) +
                                     " could not read the message with process_vm_readv: " +
                                     std::strerror(static_cast<int>(fin.error_number)));
      } else {
        status.bytes = outstanding_.count(fin.id) ? outstanding_.at(fin.id).size : 0;
      }
      finish_outstanding(fin.id, std::move(status));
      return true;
    }
    case CellKind::kShareCopy: {
      ShareCopy share;
      peer.in.read(first, sizeof(CellHeader), &share, sizeof share);
      peer.in.release_message(1);
      accept_share(share, peer);
      return true;
    }
    case CellKind::kWithdraw: {
      Withdraw withdraw;
      peer.in.read(first, sizeof(CellHeader), &withdraw, sizeof withdraw);
      peer.in.release_message(1);
      answer_withdraw(peer_local, withdraw.id);
      return true;
    }
    case CellKind::kClearToSend: {
      ClearToSend cts;
      peer.in.read(first, sizeof(CellHeader), &cts, sizeof cts);
      peer.in.release_message(1);
      if (!outstanding_.count(cts.id)) {
        throw Error(ErrorCode::kInternal,
                    "shm: clear-to-send for unknown rendezvous " + std::to_string(cts.id));
      }
      StagedTransfer t;
      t.id = cts.id;
      t.bytes = static_cast<std::size_t>(cts.bytes);
      peer.pushes.push_back(std::move(t));
      ++queued_pushes_;
      return true;
    }
  }
  throw Error(ErrorCode::kInternal, "shm: corrupt cell (kind " +
                                        std::to_string(static_cast<std::uint32_t>(header.kind)) +
                                        ") from rank " + std::to_string(peer.world_rank));
}

void ShmTransport::start_pull(int peer_local, const Envelope& env, const RendezvousRequest& request,
                              std::byte* dst, std::size_t capacity, Completion done) {
  if (peers_[static_cast<std::size_t>(peer_local)].withdrawn.erase(request.id) > 0) {
    defer(
        std::move(done),
        Status::failure(
            ErrorCode::kCancelled,
            "shm: rank " + std::to_string(peers_[static_cast<std::size_t>(peer_local)].world_rank) +
                " withdrew this message: its send failed"));
    return;
  }
  std::size_t size = static_cast<std::size_t>(env.size);
  std::size_t bytes = std::min(capacity, size);
  if (bytes > 0 && dst == nullptr) {
    throw Error(ErrorCode::kInvalidArgument,
                "shm: deliver() dst is null with capacity " + std::to_string(capacity));
  }
  CmaPull pull;
  pull.peer_local = peer_local;
  // The pid the peer published, not the one in its announcement: the segment may be written by
  // any process of this user, and a read from another process would fill this buffer with its
  // memory.
  pull.pid = peers_[static_cast<std::size_t>(peer_local)].pid;
  pull.address = request.address;
  pull.id = request.id;
  pull.dst = dst;
  pull.bytes = bytes;
  pull.size = size;
  pull.done = std::move(done);
  if (cma_enabled_) {
    offer_share(pull);
    cma_pulls_.push_back(std::move(pull));
  } else {
    switch_to_staged(pull);
  }
}

void ShmTransport::switch_to_staged(CmaPull& pull) {
  ClearToSend cts{pull.id, pull.bytes};
  send_control(pull.peer_local, CellKind::kClearToSend, &cts, sizeof cts);
  StagedTransfer t;
  t.id = pull.id;
  t.dst = pull.dst;
  t.bytes = pull.bytes;
  t.size = pull.size;
  t.done = std::move(pull.done);
  ++stats_.staged_pulls;
  peers_[static_cast<std::size_t>(pull.peer_local)].pulls.push_back(std::move(t));
  ++queued_pulls_;
}

int ShmTransport::advance_cma_pulls() {
  int events = 0;
  for (auto it = cma_pulls_.begin(); it != cma_pulls_.end();) {
    CmaPull& pull = *it;
    if (pull.share >= 0) {
      it = advance_shared_pull(pull, events) ? cma_pulls_.erase(it) : std::next(it);
      continue;
    }
    if (!cma_enabled_) {  // an earlier pull found CMA refused: this one goes staged too
      switch_to_staged(pull);
      it = cma_pulls_.erase(it);
      ++events;
      continue;
    }
    std::size_t chunk = std::min(config_.cma_chunk, pull.bytes - pull.copied);
    int error_number =
        chunk == 0 ? 0
                   : cma_read(pull.pid, pull.address + pull.copied, pull.dst + pull.copied, chunk);
    if (error_number != 0 && cma_refused(error_number) &&
        config_.single_copy == SingleCopyMode::kAuto) {
      log::debug("shm: process_vm_readv refused ({}); large messages now use the staged copy",
                 std::strerror(error_number));
      cma_enabled_ = false;
      continue;  // the same pull goes staged at the top of the loop
    }
    ++events;
    if (error_number == 0 && chunk > 0) cma_proven_ = true;
    pull.copied += chunk;
    if (error_number == 0 && pull.copied < pull.bytes) {
      ++it;
      continue;
    }
    finish_pull(pull, error_number);
    it = cma_pulls_.erase(it);
  }
  return events;
}

void ShmTransport::finish_pull(CmaPull& pull, int error_number) {
  PullDone fin{pull.id, error_number != 0 ? kPullFailed : kPullRead,
               static_cast<std::uint32_t>(error_number)};
  send_control(pull.peer_local, CellKind::kPullDone, &fin, sizeof fin);
  if (error_number != 0) {
    const Peer& p = peers_[static_cast<std::size_t>(pull.peer_local)];
    defer(std::move(pull.done),
          Status::failure(ErrorCode::kTransport, "shm: process_vm_readv from rank " +
                                                     std::to_string(p.world_rank) + " (pid " +
                                                     std::to_string(pull.pid) +
                                                     ") failed: " + std::strerror(error_number)));
    return;
  }
  ++stats_.cma_pulls;
  defer(std::move(pull.done), receive_status(pull.bytes, pull.size));
}

int ShmTransport::pull_staged() {
  int events = 0;
  if (queued_pulls_ == 0) return 0;
  for (Peer& p : peers_) {
    bool released = false;
    while (!p.pulls.empty()) {
      StagedTransfer& t = p.pulls.front();
      while (t.moved < t.bytes && p.staging_in.readable() > 0) {
        std::size_t n = std::min<std::size_t>(p.staging_in.cell_size(), t.bytes - t.moved);
        copy_bytes(t.dst + t.moved, p.staging_in.cell(p.staging_in.read_position()), n);
        p.staging_in.release(1);
        t.moved += n;
        released = true;
        ++events;
      }
      if (t.moved < t.bytes) break;
      defer(std::move(t.done), receive_status(t.bytes, t.size));
      p.pulls.pop_front();
      --queued_pulls_;
      ++events;
    }
    if (released) poke(p);
  }
  return events;
}

void ShmTransport::peer_failed(int peer) {
  if (peer < 0 || static_cast<std::size_t>(peer) >= local_of_world_.size()) return;
  const int local = local_of_world_[static_cast<std::size_t>(peer)];
  if (local < 0 || local == my_local_) return;
  Peer& p = peers_[static_cast<std::size_t>(local)];
  const Status gone = Status::failure(
      ErrorCode::kTransport, "shm: rank " + std::to_string(peer) + " died during the transfer");
  // hlaunch names a rank only once it reaped its process, so it pushes no more chunks; this
  // rank's own copies run on this thread and have returned. The buffers are quiet now.
  for (auto it = cma_pulls_.begin(); it != cma_pulls_.end();) {
    if (it->peer_local != local) {
      ++it;
      continue;
    }
    if (it->share >= 0) {
      CopyShare(&my_block_->shares[static_cast<std::size_t>(it->share)]).close(it->generation);
      share_busy_[static_cast<std::size_t>(it->share)] = false;
    }
    defer(std::move(it->done), gone);
    it = cma_pulls_.erase(it);
  }
  for (StagedTransfer& t : p.pulls) defer(std::move(t.done), gone);
  queued_pulls_ -= p.pulls.size();
  p.pulls.clear();
  // Nobody will read these sends any more, nor make room in its rings.
  for (OutboundCell& cell : p.backlog) defer(std::move(cell.done), gone);
  queued_backlog_ -= p.backlog.size();
  p.backlog.clear();
  queued_pushes_ -= p.pushes.size();
  p.pushes.clear();
  std::erase_if(outstanding_, [&](auto& entry) {
    if (entry.second.peer_local != local) return false;
    defer(std::move(entry.second.done), gone);
    return true;
  });
  // Chunks this rank would push into the dead receiver's buffers.
  if (p.block == nullptr) return;
  const CopyShareSlot* slots = p.block->shares;
  std::erase_if(helps_,
                [&](const Help& h) { return h.slot >= slots && h.slot < slots + kCopyShareSlots; });
}

}  // namespace halyard::shm
