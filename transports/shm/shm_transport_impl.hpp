// The shm transport's internals, shared by its source files (wiring and sending in
// shm_transport.cpp, receiving and rendezvous pulls in shm_receive.cpp).
#pragma once

#include <sys/types.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <list>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "runtime/bootstrap/launch_info.hpp"
#include "runtime/node_memory.hpp"
#include "runtime/transport.hpp"
#include "transports/shm/shm_config.hpp"
#include "transports/shm/shm_node_memory.hpp"
#include "transports/shm/shm_segment.hpp"
#include "transports/shm/shm_wire.hpp"
#include "transports/shm/spsc_cell_ring.hpp"
#include "transports/shm/wake_channel.hpp"

namespace halyard::shm {

class EagerIncoming;

// Counters for tests and benchmarks: which paths the traffic took.
struct ShmStats {
  std::uint64_t eager_sent = 0;        // eager messages written into rings
  std::uint64_t rendezvous_sent = 0;   // rendezvous announcements sent
  std::uint64_t cma_pulls = 0;         // rendezvous payloads received by CMA
  std::uint64_t staged_pulls = 0;      // rendezvous payloads received through staging
  std::size_t backlog_high_water = 0;  // most sends ever queued for one peer's full ring
  std::uint64_t shared_pulls = 0;      // rendezvous payloads copied by both ends (CopyShare)
  std::uint64_t chunks_pushed = 0;     // CopyShare chunks this rank pushed as a sender
};

class ShmTransport final : public Transport, public NodeMemoryProvider {
 public:
  ShmTransport(const LaunchInfo& info, const ShmConfig& config);
  ~ShmTransport() override;

  std::string_view name() const override { return "shm"; }
  void publish(BootstrapClient& bootstrap) override;
  void connect(BootstrapClient& bootstrap, const TopologyTable& topology) override;
  void set_incoming_handler(IncomingHandler handler) override;
  void set_eager_matcher(EagerMatcher* matcher) override { matcher_ = matcher; }
  void send(int peer, const Envelope& env, const void* buf, Completion done) override;
  bool send_now(int peer, const Envelope& env, const void* buf) override;
  int progress() override;
  int wait_fd() override { return wake_.fd(); }
  bool prepare_to_block() override;
  // Ends the pulls from `peer` (also shared ones: a dead sender pushes no more chunks), its
  // staged transfers, the sends queued for it or waiting for it to read them, and the chunks
  // this rank pushes into it.
  void peer_failed(int peer) override;
  // Drops queued eager sends and announcements, and asks each receiver of an announced transfer
  // to withdraw it (shm_wire.hpp, Withdraw): those sends complete on the receiver's PullDone.
  void withdraw_sends() override;

  const ShmStats& stats() const { return stats_; }
  // Scratch slots and CMA reads for intra-node collectives; null before connect().
  NodeMemory* node_memory() override { return node_memory_.get(); }
  // The eager limit in force (HALYARD_SHM_EAGER_LIMIT, clamped to half a ring); after connect().
  std::size_t eager_limit() const { return eager_limit_; }

  // Receiver side of a rendezvous, called by RendezvousIncoming::deliver().
  void start_pull(int peer_local, const Envelope& env, const RendezvousRequest& request,
                  std::byte* dst, std::size_t capacity, Completion done);
  // Runs `done(status)` from the next progress() (never from the caller's stack).
  void defer(Completion done, Status status);
  // A receive's status: ok with `size` bytes, or kTruncated when only `bytes` fit.
  static Status receive_status(std::size_t bytes, std::size_t size);
  // Tells the sender of transfer `id` that this rank never reads it (PullDone, withdrawn).
  void answer_withdrawn(int peer_local, std::uint64_t id);
  // Called by an EagerIncoming whose payload still sits in a ring when it is destroyed.
  void forget_announcing(const EagerIncoming* message);

 private:
  // A message waiting for room in a peer's ring (or written at once when there is room).
  struct OutboundCell {
    CellHeader header{};
    const void* payload = nullptr;  // eager payload, or nullptr for a control message
    std::array<std::byte, 24> control{};
    std::size_t control_bytes = 0;
    Completion done;  // eager only: runs once the payload is in the ring
  };
  // Fallback: one transfer streamed through a staging area, in ClearToSend order.
  struct StagedTransfer {
    std::uint64_t id = 0;      // the rendezvous id
    std::byte* dst = nullptr;  // receiver side: the destination
    std::size_t bytes = 0;     // bytes that move (the receiver's capacity, at most the size)
    std::size_t size = 0;      // full message size (receiver side, for truncation)
    std::size_t moved = 0;
    Completion done;  // receiver side
  };
  struct Peer {
    int world_rank = -1;
    pid_t pid = 0;  // as the peer published it in the bootstrap, not as the segment says
    ProcessBlock* block = nullptr;
    SpscCellRing out, in;                  // rings me -> peer and peer -> me
    SpscCellRing staging_out, staging_in;  // staging areas me -> peer and peer -> me
    std::deque<OutboundCell> backlog;      // sends waiting for room, in order
    std::deque<StagedTransfer> pushes;     // transfers this rank streams to the peer
    std::deque<StagedTransfer> pulls;      // transfers this rank receives from the peer
    bool owes_room_poke = false;           // we freed cells of `in` this pass
    bool rings_populated = false;          // populate_rings() ran: the pair has exchanged a message
    // Announcements of the peer it withdrew before they were read: delivering one fails.
    std::unordered_set<std::uint64_t> withdrawn;
  };
  // Sender side of a rendezvous: the buffer stays here until the peer says it is done.
  struct Outstanding {
    int peer_local = -1;
    const std::byte* buf = nullptr;
    std::size_t size = 0;
    Completion done;
  };
  // Receiver side of a CMA rendezvous, advanced a chunk per progress() pass.
  struct CmaPull {
    int peer_local = -1;
    pid_t pid = 0;
    std::uint64_t address = 0;
    std::uint64_t id = 0;
    std::byte* dst = nullptr;
    std::size_t bytes = 0;  // min(capacity, size)
    std::size_t size = 0;
    std::size_t copied = 0;
    Completion done;
    // Shared with the sender (copy_share.hpp): the slot of my ProcessBlock, or -1 when pulled
    // alone in cma_chunk steps.
    int share = -1;
    std::uint32_t generation = 0;
    bool recovered = false;     // copied the chunk the sender claimed and could not
    int error_number = 0;       // failed: waits until the sender's claimed chunks are settled
    std::uint32_t claimed = 0;  // chunks claimed in all when it failed
  };
  // The sender's side of a CopyShare: a transfer whose chunks this rank pushes.
  struct Help {
    CopyShareSlot* slot = nullptr;
    std::uint32_t generation = 0;
    const std::byte* src = nullptr;
    // The slot's terms as checked when the offer came (CopyShare::problem_for_sender): the
    // receiver's process, destination and size are read from here, never from the slot again.
    CopyShareSlot terms{};
  };

  Peer& peer_of_world(int world_rank, const char* what);
  void map_rings();
  static void check_buffer(const Envelope& env, const void* buf);
  // Writes one message (header and body) into the peer's ring if it fits; false otherwise.
  bool write_cell(Peer& peer, const CellHeader& header, const void* body, std::size_t bytes);
  // Maps both rings of the pair at its first message, in either direction. Rings of pairs that
  // never talk stay untouched (no memory), and a pair that does talk pays one madvise instead of
  // a page fault per cell in its first messages (~0.1 µs per call of a benchmark's first size).
  static void populate_rings(Peer& peer);
  bool try_write(Peer& peer, OutboundCell& cell);
  void enqueue(int peer_local, OutboundCell cell);
  void send_control(int peer_local, CellKind kind, const void* body, std::size_t bytes);
  // Wakes `peer` if it sleeps, after a fence (it may be waiting for what we just published).
  void poke(const Peer& peer);
  // The same for every peer whose ring this pass consumed from, with one fence for them all.
  void wake_room_waiters();
  void wake_if_sleeping(const Peer& peer);
  int flush_backlogs();
  int push_staged();
  // shm_receive.cpp
  int poll_rings();
  bool handle_message(int peer_local, Peer& peer);
  int advance_cma_pulls();
  // Sends PullDone and completes `pull`: ok, or the CMA error `error_number`.
  void finish_pull(CmaPull& pull, int error_number);
  // The peer's Withdraw of transfer `id`: answered now unless a read of it is under way.
  void answer_withdraw(int peer_local, std::uint64_t id);
  // After withdraw_sends(), every 10 ms: completes the sends whose receiver's process has
  // ended without answering (it exited normally, so no failure notice names it). Returns
  // how many it completed.
  int end_sends_to_ended_peers();
  // shm_shared_copy.cpp
  // Opens a CopyShare for `pull` and asks its sender to help, when that is worth it.
  void offer_share(CmaPull& pull);
  // One step of a shared pull; true once it finished (and finish_pull ran).
  bool advance_shared_pull(CmaPull& pull, int& events);
  void accept_share(const ShareCopy& share, const Peer& peer);
  int help_copies();
  int pull_staged();
  void switch_to_staged(CmaPull& pull);
  void finish_outstanding(std::uint64_t id, Status status);
  // True when progress() would find something to do right now.
  bool has_local_work();

  LaunchInfo info_;
  ShmConfig config_;
  SharedSegment segment_;
  std::optional<SegmentLayout> layout_;
  std::size_t eager_limit_ = 0;
  int my_local_ = -1;
  std::vector<int> local_of_world_;  // -1 for ranks on other nodes
  std::vector<Peer> peers_;          // by local index
  IncomingHandler handler_;
  EagerMatcher* matcher_ = nullptr;
  WakeChannel wake_;
  ProcessBlock* my_block_ = nullptr;
  std::vector<std::pair<Completion, Status>> ready_;
  // What progress() is running now; swapped with ready_ so both keep their capacity and a
  // completion costs no allocation per pass.
  std::vector<std::pair<Completion, Status>> running_;
  std::unordered_map<std::uint64_t, Outstanding> outstanding_;
  std::list<CmaPull> cma_pulls_;
  std::uint64_t next_id_ = 1;
  bool withdrawing_ = false;  // withdraw_sends() ran and sends still wait for an answer
  // withdraw_sends() ran: a send it completed may still be answered (the receiver's PullDone
  // crossed the withdrawal, or came from a receiver that ended meanwhile).
  bool withdrew_ = false;
  std::chrono::steady_clock::time_point next_liveness_check_{};
  bool cma_enabled_ = true;
  EagerIncoming* announcing_ = nullptr;  // the eager arrival whose handler is running
  // Items queued over all peers, so that progress() skips the per-peer loops when idle.
  std::size_t queued_backlog_ = 0, queued_pushes_ = 0, queued_pulls_ = 0;
  std::size_t owed_room_pokes_ = 0;
  ShmStats stats_;
  bool armed_ = false;  // prepare_to_block() said we may sleep
  // CopyShare: which slots of my ProcessBlock are in use; whether CMA has worked here yet (a
  // transfer is shared only then); whether this rank still helps its receivers.
  std::array<bool, kCopyShareSlots> share_busy_{};
  bool cma_proven_ = false;
  bool share_allowed_ = false;  // ShmConfig::shared_copy, resolved at connect()
  bool helping_ = true;
  std::vector<Help> helps_;
  std::unique_ptr<ShmNodeMemory> node_memory_;
};

}  // namespace halyard::shm
