// Both ends of a large CMA rendezvous copying at once (copy_share.hpp): the receiver opens a
// CopyShare slot and pulls chunks, the sender pushes chunks of the same slot while its loop
// runs. Whoever claims a chunk copies it; the receiver completes once every chunk is in.
#include <unistd.h>

#include <cstring>
#include <string>

#include "runtime/support/cma_copy.hpp"
#include "runtime/support/log.hpp"
#include "transports/shm/shm_transport_impl.hpp"

namespace halyard::shm {

void ShmTransport::offer_share(CmaPull& pull) {
  // Only once CMA has worked here (a refusal mid-way then cannot leave a half-shared
  // transfer), and only where a second copier pays for the hand-over.
  if (!share_allowed_ || !cma_proven_ || pull.bytes < CopyShare::kMinBytes) return;
  for (std::size_t s = 0; s < share_busy_.size(); ++s) {
    if (share_busy_[s]) continue;
    share_busy_[s] = true;
    pull.share = static_cast<int>(s);
    pull.generation = CopyShare(&my_block_->shares[s])
                          .open(reinterpret_cast<std::uintptr_t>(pull.dst), pull.bytes, ::getpid());
    ShareCopy offer{pull.id, static_cast<std::uint32_t>(s), pull.generation};
    send_control(pull.peer_local, CellKind::kShareCopy, &offer, sizeof offer);
    return;
  }
}

bool ShmTransport::advance_shared_pull(CmaPull& pull, int& events) {
  CopyShare share(&my_block_->shares[static_cast<std::size_t>(pull.share)]);
  auto pull_chunk = [&](std::uint32_t chunk) {
    return cma_read(pull.pid, pull.address + share.offset(chunk), pull.dst + share.offset(chunk),
                    share.length(chunk));
  };
  if (pull.error_number == 0) {
    if (std::optional<std::uint32_t> chunk = share.claim(pull.generation)) {
      ++events;
      if (int error_number = pull_chunk(*chunk)) {
        // Stop the claims, then wait below for the chunks the sender is still copying.
        pull.error_number = error_number;
        pull.claimed = share.close(pull.generation);
      } else {
        share.finished_chunk();
      }
      return false;
    }
    std::optional<std::uint32_t> abandoned = share.failed_chunk();
    if (abandoned && !pull.recovered) {
      ++events;
      pull.recovered = true;
      if (int error_number = pull_chunk(*abandoned)) {
        pull.error_number = error_number;
        pull.claimed = share.chunks();
      } else {
        share.finished_chunk();
      }
      return false;
    }
    if (pull.error_number == 0 && share.done() < share.chunks()) return false;  // sender copying
  }
  if (pull.error_number != 0) {
    // The destination may not be handed back while the sender still writes into it: wait
    // until every claimed chunk is copied or failed (the recovered chunk failed only once).
    const std::uint32_t failed = pull.recovered ? 1u : 1u + (share.failed_chunk() ? 1u : 0u);
    const std::uint32_t settled = share.done() + failed;
    if (settled < pull.claimed) return false;
  }
  share_busy_[static_cast<std::size_t>(pull.share)] = false;
  if (pull.error_number == 0) ++stats_.shared_pulls;
  finish_pull(pull, pull.error_number);
  ++events;
  return true;
}

void ShmTransport::accept_share(const ShareCopy& offer, const Peer& peer) {
  auto it = outstanding_.find(offer.id);
  if (!helping_ || it == outstanding_.end() || offer.slot >= kCopyShareSlots) return;
  Help help{&peer.block->shares[offer.slot], offer.generation, it->second.buf, {}};
  // The receiver may have copied the whole message alone and opened the slot for its next
  // transfer before this offer was read: nothing to help with, and the slot's terms are the
  // next transfer's (which the checks below would refuse, loudly). Checked before and after
  // the copy of the terms.
  const CopyShare live(help.slot);
  auto moved_on = [&] { return live.generation() != offer.generation; };
  if (moved_on()) return;
  // A copy of the terms, read after the offer (the receiver wrote them before sending it);
  // later changes to the slot do not reach the pushes.
  std::memcpy(&help.terms, help.slot, sizeof help.terms);
  if (moved_on()) return;
  if (auto problem = CopyShare(&help.terms).problem_for_sender(peer.pid, it->second.size)) {
    // Not helping costs nothing but speed: the receiver copies every chunk itself.
    log::warn("shm: not helping rank {} copy a message: its copy slot {}", peer.world_rank,
              *problem);
    return;
  }
  helps_.push_back(help);
}

int ShmTransport::help_copies() {
  int events = 0;
  // One chunk per transfer per pass, so the loop keeps serving everything else.
  for (auto it = helps_.begin(); it != helps_.end();) {
    CopyShare share(it->slot);
    const CopyShare terms(&it->terms);
    std::optional<std::uint32_t> chunk = share.claim(it->generation);
    // Done when every chunk is taken or the receiver moved on; a chunk beyond the checked terms
    // (the slot changed since) is not this sender's to copy.
    if (!chunk || *chunk >= terms.chunks()) {
      it = helps_.erase(it);
      continue;
    }
    ++events;
    if (int error_number =
            cma_write(terms.receiver_pid(), terms.destination() + terms.offset(*chunk),
                      it->src + terms.offset(*chunk), terms.length(*chunk))) {
      // The receiver copies this chunk itself; this rank stops helping anyone.
      share.helper_failed(*chunk);
      helping_ = false;
      helps_.clear();
      log::debug("shm: process_vm_writev failed ({}); receivers copy large messages alone",
                 std::strerror(error_number));
      return events;
    }
    share.finished_chunk();
    ++stats_.chunks_pushed;
    ++it;
  }
  return events;
}

}  // namespace halyard::shm
