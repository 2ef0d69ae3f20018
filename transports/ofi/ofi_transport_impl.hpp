// The ofi transport's internals, shared by its source files (not part of the public API).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <rdma/fi_errno.h>

#include "runtime/bootstrap/launch_info.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/remote_memory.hpp"
#include "runtime/transport.hpp"
#include "transports/ofi/ofi_fabric.hpp"
#include "transports/ofi/ofi_wire.hpp"

namespace halyard::ofi {

// The status of a receive whose buffer was too small: kTruncated, `capacity` bytes written.
Status truncation_status(std::size_t message_size, std::size_t capacity);

// How many provider operations of at most `chunk` bytes move `bytes` (rendezvous, RMA).
inline std::size_t chunk_count(std::size_t bytes, std::size_t chunk) {
  return bytes == 0 ? 0 : (bytes + chunk - 1) / chunk;
}

// Keeps the first real failure of a chunked transfer in `kept` (its byte count unchanged);
// truncation is only reported when nothing else went wrong.
inline void record_failure(Status& kept, const Status& incoming) {
  if (incoming.ok() || (!kept.ok() && kept.code != ErrorCode::kTruncated)) return;
  const std::size_t bytes = kept.bytes;
  kept = incoming;
  kept.bytes = bytes;
}

enum class WaitFdMode { kAuto, kOn, kOff };

// HALYARD_OFI_* settings, read once when the transport opens.
struct Settings {
  std::optional<std::string> provider;  // HALYARD_OFI_PROVIDER
  RmaPolicy rma = RmaPolicy::kAuto;     // HALYARD_OFI_RMA=auto|on|off
  std::size_t eager_limit = 0;          // HALYARD_OFI_EAGER_LIMIT: largest eager payload
  std::size_t chunk_size = 0;           // HALYARD_OFI_CHUNK_SIZE (0: default_chunk_size())
  int frame_buffers = 0;                // HALYARD_OFI_RECV_BUFFERS: pre-posted frame receives
  WaitFdMode wait_fd_mode = WaitFdMode::kAuto;  // HALYARD_OFI_WAIT_FD=auto|on|off
  bool wait_fd = true;  // whether the completion queue gets a wait fd (use_wait_fd())
  static Settings from_environment();
  // The wait-fd decision for a loop with `loop_policy`, `ranks_on_host` ranks of the job on
  // this machine and `cpus_online` CPUs (docs/transport-ofi.md).
  bool use_wait_fd(WaitPolicy loop_policy, int ranks_on_host, long cpus_online,
                   bool progress_thread = false) const;
};

// The largest rendezvous data operation where HALYARD_OFI_CHUNK_SIZE is unset, for the provider
// named `provider_name` ("tcp;ofi_rxm"): 512 KiB where it moves data over kernel sockets (tcp,
// net, sockets, udp), the whole message (1 GiB) elsewhere (docs/transport-ofi.md).
std::size_t default_chunk_size(const std::string& provider_name);

// Sets provider variables (FI_OFI_RXM_EAGER_LIMIT) that suit `settings`, where the user set
// none; must run before libfabric initializes (the first fi_getinfo of the process).
void tune_provider_environment(const Settings& settings);

class OfiTransport;
class OfiRemoteMemory;
class Operation;

// The context of one posted libfabric operation. The fi_context2 comes first: in FI_CONTEXT
// mode the provider uses it as scratch until the operation completes, and the completion's
// op_context points at it, which leads back to the owning Operation.
struct OpContext {
  fi_context2 scratch{};
  Operation* owner = nullptr;
};
static_assert(std::is_standard_layout_v<OpContext>);

// Something with libfabric operations in flight: a frame buffer, a send, a rendezvous.
class Operation {
 public:
  virtual ~Operation() = default;
  // One of its posted operations finished; `status` says whether it failed.
  virtual void on_completion(OfiTransport& transport, const fi_cq_tagged_entry& entry,
                             const Status& status) = 0;
};

// A pre-posted receive buffer for frames (eager messages and rendezvous control).
struct FrameSlot final : Operation {
  OpContext context;
  std::vector<std::byte> bytes;
  void on_completion(OfiTransport& transport, const fi_cq_tagged_entry& entry,
                     const Status& status) override;
};

// One frame on its way out; `payload` (eager data) is sent from the caller's buffer.
struct FrameSend final : Operation {
  OpContext context;
  alignas(8) std::byte frame[kMaxControlFrame];
  std::vector<std::byte> flattened;  // frame + payload when the provider takes only one iovec
  Completion done;                   // may be empty (control frames)
  std::size_t payload_bytes = 0;     // reported to `done` on success
  void on_completion(OfiTransport& transport, const fi_cq_tagged_entry& entry,
                     const Status& status) override;
};

// A transfer posted as one provider operation per chunk (the rendezvous' two sides, a window's
// one-sided write or read): it ends when the last chunk completes, with the first failure.
struct ChunkedTransfer : Operation {
  std::uint64_t id = 0;
  std::vector<OpContext> chunks;
  std::size_t outstanding = 0;
  Status status;
  Completion done;
  // `count` chunk contexts pointing back at this transfer, all outstanding.
  void prepare_chunks(std::size_t count) {
    chunks.resize(count);
    for (OpContext& context : chunks) context.owner = this;
    outstanding = count;
  }
};

// A large send waiting for the receiver to pull it (RMA) or to clear it (tagged sends).
struct RendezvousSend final : ChunkedTransfer {
  int peer = 0;
  const std::byte* buffer = nullptr;
  std::size_t size = 0;
  fid_mr* region = nullptr;  // registered for FI_REMOTE_READ when RMA is used
  ~RendezvousSend() override;
  void on_completion(OfiTransport& transport, const fi_cq_tagged_entry& entry,
                     const Status& status) override;
};

// The receiving side of a rendezvous after deliver(): reads or tagged receives in flight.
struct RendezvousReceive final : ChunkedTransfer {
  int peer = 0;
  std::uint64_t send_id = 0;
  bool by_read = false;
  bool cancelled = false;  // its peer died: chunks still waiting behind -FI_EAGAIN never post
  void on_completion(OfiTransport& transport, const fi_cq_tagged_entry& entry,
                     const Status& status) override;
};

class OfiTransport final : public Transport, public RemoteMemoryProvider {
 public:
  OfiTransport(const LaunchInfo& info, Settings settings);
  ~OfiTransport() override;

  std::string_view name() const override { return "ofi"; }
  void publish(BootstrapClient& bootstrap) override;
  void connect(BootstrapClient& bootstrap, const TopologyTable& topology) override;
  void set_incoming_handler(IncomingHandler handler) override { handler_ = std::move(handler); }
  void set_eager_matcher(EagerMatcher* matcher) override { matcher_ = matcher; }
  void send(int peer, const Envelope& env, const void* buf, Completion done) override;
  // fi_tinject of an eager frame that fits the provider's inject size.
  bool send_now(int peer, const Envelope& env, const void* buf) override;
  int progress() override;
  int wait_fd() override { return fabric_.wait_fd(); }
  bool prepare_to_block() override;
  // Cancels the tagged receives of rendezvous data from `peer` (fi_cancel): each ends with a
  // FI_ECANCELED completion, after which the provider writes nothing into it; chunks not yet
  // posted (behind -FI_EAGAIN) fail instead of posting. Reads from it end with the provider's
  // error completion (the connection is gone); see docs/reliability.md.
  void peer_failed(int peer) override;
  // Asks the receiver of every announced rendezvous not being streamed to withdraw it (Withdraw
  // in ofi_wire.hpp): those sends complete on the receiver's Finish.
  void withdraw_sends() override;

  // One-sided reads and writes for windows across nodes (ofi_remote_memory.hpp); null when the
  // provider has no RMA writes or HALYARD_OFI_RMA=off.
  RemoteMemory* remote_memory() override;
  OfiRemoteMemory& remote_memory_engine() { return *remote_memory_; }

  // --- used by the operations, incoming messages and the rendezvous code ---
  const Settings& settings() const { return settings_; }
  const Fabric& fabric() const { return fabric_; }
  int rank() const { return info_.rank; }

  // Runs `done(status)` from the next progress(), never from the caller's stack.
  void complete_later(Completion done, Status status);
  // Sends `frame` (`frame_size` bytes, at most kMaxControlFrame) followed by `payload` to `peer`.
  void send_frame(int peer, const void* frame, std::size_t frame_size, const void* payload,
                  std::size_t payload_size, Completion done);

  void on_frame(FrameSlot& slot, std::size_t length, const Status& status);
  // A frame buffer an EagerIncoming adopted, handed back once its payload was delivered.
  void recycle_frame_buffer(std::vector<std::byte> buffer);
  void on_frame_sent(FrameSend& send, const Status& status);

  // Rendezvous (ofi_rendezvous.cpp).
  void start_rendezvous(int peer, const Envelope& env, const void* buf, Completion done);
  void deliver_rendezvous(const RendezvousRequest& request, void* dst, std::size_t capacity,
                          Completion done);
  void finish_rendezvous_send(std::uint64_t send_id, Status status);
  void on_clear_to_send(const ClearToSend& frame);
  void on_finish(const Finish& frame);
  // A peer's Withdraw of its send `send_id`: answered now unless the transfer is under way.
  void answer_withdraw(int sender, std::uint64_t send_id);
  // Tells `sender` that this rank never reads its send `send_id` (Finish, withdrawn).
  void answer_withdrawn(int sender, std::uint64_t send_id);
  // kWithdrawGrace after withdraw_sends(): ends the withdrawn sends no receiver answered (it
  // may have ended normally, which no failure notice reports), closing their memory
  // registrations first. Returns how many it ended.
  int end_unanswered_withdrawals();
  // Short of hlaunch's 2 s between a failure notice and SIGTERM: a receiver that ended before
  // answering must not keep its sender from reporting the failure.
  static constexpr std::chrono::seconds kWithdrawGrace{1};
  void on_sender_chunk_done(RendezvousSend& send, const Status& status);
  void on_receiver_chunk_done(RendezvousReceive& receive, const Status& status);

  // Posts a libfabric operation now, or queues it behind earlier ones that met -FI_EAGAIN (so
  // frames to a peer still leave in order). `attempt` returns the libfabric result; `fail`
  // gets any other error code. Neither runs a user completion directly. `peer` (-1: none) lets
  // peer_failed() drop what is queued for a dead rank, which would otherwise block the queue.
  template <typename Attempt, typename Fail>
  void post(Attempt&& attempt, Fail&& fail, int peer = -1) {
    if (peer >= 0 && dead_peers_.count(peer) > 0) {
      fail(-FI_ECANCELED);
      return;
    }
    if (backlog_.empty()) {
      ssize_t rc = attempt();
      if (rc == 0) return;
      if (rc != -FI_EAGAIN) {
        fail(rc);
        return;
      }
    }
    backlog_.push_back(Backlogged{std::forward<Attempt>(attempt), std::forward<Fail>(fail), peer});
  }

  fid_ep* endpoint() const { return fabric_.endpoint(); }
  fi_addr_t address_of(int peer) const { return addresses_.at(static_cast<std::size_t>(peer)); }
  // Largest data operation for a rendezvous: the setting, capped by the provider's limit.
  std::size_t chunk_size() const;

 private:
  // Throws Error(kInvalidArgument) for a peer outside the job, a null buffer, or no connect().
  void check_send(int peer, const Envelope& env, const void* buf) const;
  // The eager frame of the next message to `peer` (the sequence number is not consumed).
  EagerFrame eager_frame(int peer, const Envelope& env) const;
  struct Backlogged {
    std::function<ssize_t()> attempt;
    std::function<void(ssize_t)> fail;
    int peer = -1;
  };

  void post_frame_receive(FrameSlot& slot);
  void repost_frame_receives();
  // `slot` is the frame buffer the data lies in, or null for a frame held back out of order.
  void dispatch_in_order(int sender, const std::byte* data, std::size_t length, FrameSlot* slot);
  void announce(const std::byte* data, std::size_t length, FrameSlot* slot);
  int read_completions();
  int retry_backlog();
  FrameSend* acquire_frame_send();

  LaunchInfo info_;
  Settings settings_;
  Fabric fabric_;
  std::size_t iov_limit_ = 1;
  IncomingHandler handler_;
  EagerMatcher* matcher_ = nullptr;
  std::vector<fi_addr_t> addresses_;  // world rank -> AV address

  std::vector<std::unique_ptr<FrameSlot>> slots_;
  std::vector<FrameSlot*> frames_to_repost_;  // handled frame buffers, posted again next pass
  std::vector<std::unique_ptr<FrameSend>> frame_sends_;
  std::vector<FrameSend*> free_frame_sends_;

  // Per peer: sequence numbers of ordered frames, and frames that overtook an earlier one.
  std::vector<std::uint64_t> next_sequence_out_;
  std::vector<std::uint64_t> next_sequence_in_;
  std::vector<std::map<std::uint64_t, std::vector<std::byte>>> early_frames_;

  std::unordered_map<std::uint64_t, std::unique_ptr<RendezvousSend>> rendezvous_sends_;
  std::unordered_map<std::uint64_t, std::unique_ptr<RendezvousReceive>> rendezvous_receives_;
  // (sender, send id) of announcements withdrawn before they were delivered: delivering fails.
  std::set<std::pair<int, std::uint64_t>> withdrawn_;
  std::uint64_t next_send_id_ = 1;
  std::uint64_t next_rendezvous_id_ = 1;

  std::deque<Backlogged> backlog_;
  std::set<int> dead_peers_;
  std::optional<std::chrono::steady_clock::time_point>
      withdraw_deadline_;  // named by peer_failed(): nothing more is posted for them
  // The eager message being announced, while it still points into its frame buffer.
  class EagerIncoming* lending_ = nullptr;
  // Frame buffers given to kept eager messages come back here for reuse (see announce()).
  std::vector<std::vector<std::byte>> spare_buffers_;
  std::size_t frame_capacity_ = 0;
  std::vector<std::pair<Completion, Status>> deferred_;
  // What progress() is running now; swapped with deferred_ so both keep their capacity and a
  // completion costs no allocation per pass.
  std::vector<std::pair<Completion, Status>> running_;
  bool skipped_completion_read_ = false;

  std::unique_ptr<OfiRemoteMemory> remote_memory_;  // when the provider has RMA writes

  friend struct RendezvousSend;
  friend struct RendezvousReceive;
};

}  // namespace halyard::ofi
