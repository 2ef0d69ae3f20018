// Failed sends and the receivers that may still read them (docs/reliability.md, "No byte after
// the error"): a send of a failed process completes only once no receiver can read its buffer.
// The sender drops what it never handed over and asks each receiver of an announced transfer to
// withdraw it; the receiver answers at once when it had not begun to read, or with the usual
// PullDone when its read ends.
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "transports/shm/shm_transport_impl.hpp"

namespace halyard::shm {

void ShmTransport::answer_withdraw(int peer_local, std::uint64_t id) {
  Peer& p = peers_[static_cast<std::size_t>(peer_local)];
  const bool reading = std::any_of(cma_pulls_.begin(), cma_pulls_.end(),
                                   [&](const CmaPull& pull) {
                                     return pull.peer_local == peer_local && pull.id == id;
                                   }) ||
                       std::any_of(p.pulls.begin(), p.pulls.end(),
                                   [&](const StagedTransfer& t) { return t.id == id; });
  // A read under way answers with its own PullDone when it ends.
  if (reading) return;
  // Not begun (announced, or not even matched yet), or already finished: it never begins now.
  // An id remembered for a transfer that had finished is never asked for again.
  p.withdrawn.insert(id);
  answer_withdrawn(peer_local, id);
}

void ShmTransport::answer_withdrawn(int peer_local, std::uint64_t id) {
  PullDone fin{id, kPullWithdrawn, 0};
  send_control(peer_local, CellKind::kPullDone, &fin, sizeof fin);
}

void ShmTransport::withdraw_sends() {
  const Status withdrawn =
      Status::failure(ErrorCode::kCancelled, "shm: send withdrawn after the process failed");
  for (Peer& p : peers_) {
    // What was never handed over stays unread: eager payloads and announcements still queued.
    // Control cells still go (answers this rank owes its peers).
    std::deque<OutboundCell> kept;
    for (OutboundCell& cell : p.backlog) {
      if (cell.header.kind == CellKind::kEager) {
        defer(std::move(cell.done), withdrawn);
      } else if (cell.header.kind == CellKind::kRendezvousRequest) {
        RendezvousRequest request;
        std::memcpy(&request, cell.control.data(), sizeof request);
        finish_outstanding(request.id, withdrawn);
      } else {
        kept.push_back(std::move(cell));
      }
    }
    queued_backlog_ -= p.backlog.size() - kept.size();
    p.backlog = std::move(kept);
  }
  // Announced ones: the receiver may be reading them, or may begin at any time.
  for (const auto& [id, out] : outstanding_) {
    const Peer& p = peers_[static_cast<std::size_t>(out.peer_local)];
    const std::uint64_t transfer = id;
    // Streamed through the staging area on the receiver's request: ends as the stream does.
    if (std::any_of(p.pushes.begin(), p.pushes.end(),
                    [&](const StagedTransfer& t) { return t.id == transfer; })) {
      continue;
    }
    Withdraw withdraw{id};
    send_control(out.peer_local, CellKind::kWithdraw, &withdraw, sizeof withdraw);
  }
  withdrew_ = true;
  withdrawing_ = !outstanding_.empty();
}

int ShmTransport::end_sends_to_ended_peers() {
  if (outstanding_.empty()) {
    withdrawing_ = false;
    return 0;
  }
  const auto now = std::chrono::steady_clock::now();
  if (now < next_liveness_check_) return 0;
  next_liveness_check_ = now + std::chrono::milliseconds(10);
  int ended = 0;
  std::erase_if(outstanding_, [&](auto& entry) {
    Peer& p = peers_[static_cast<std::size_t>(entry.second.peer_local)];
    // A process that has ended reads nothing any more. (A reused pid only makes the send wait
    // on, until the answer or the job's end.)
    if (::kill(p.block->pid, 0) == 0 || errno != ESRCH) return false;
    // Nor does it consume a stream it asked for: drop the pushes of this transfer too.
    const std::uint64_t transfer = entry.first;
    queued_pushes_ -=
        std::erase_if(p.pushes, [&](const StagedTransfer& t) { return t.id == transfer; });
    defer(std::move(entry.second.done),
          Status::failure(ErrorCode::kCancelled,
                          "shm: send withdrawn after the process failed; rank " +
                              std::to_string(p.world_rank) + " ended without reading it"));
    ++ended;
    return true;
  });
  return ended;
}

}  // namespace halyard::shm
