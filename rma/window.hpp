// One window of one-sided communication (the MPI shim's MPI_Win and the C++ API's Window): its
// memory, its peers' memory as this rank reaches it, and its epochs. docs/one-sided.md.
//
// Every operation can travel one general path: an active message on the window's private
// communicator, applied by the target's progress (its event loop, or its progress thread with
// HALYARD_PROGRESS_THREAD=1) and acknowledged once applied, so a flush waits for the
// acknowledgements. Accumulates, fetch-and-op and compare-and-swap always take it: the target
// applies them one at a time with the window's accumulate function, which makes them atomic per
// element against each other. Puts and gets take a shorter path when there is one
// (HALYARD_RMA_DIRECT=0 turns them off): the target's memory itself when this rank maps it (its
// own window, or an allocated window of a rank on this node: window_segment.hpp), else one CMA
// copy (process_vm_writev / readv) into a window of a rank on this node. Across nodes, where the
// transport offers remote memory (runtime/remote_memory.hpp: ofi's fi_write / fi_read into the
// window, registered when it was made), the puts and gets that are not packed are one-sided
// writes and reads that need nothing from the target's runtime but its transport's progress.
//
// Small puts, accumulates and gets that nobody waits for alone (RmaCall::may_pack) towards a
// rank reached by messages are packed, per target, into one message sent when the pack is
// full, at the next flush (every synchronization that completes operations flushes first), or
// before any other operation to that target; the target applies them in order and answers
// them in one message: the count of puts and accumulates, and the gets' results (Open MPI's osc
// pt2pt packs alike).
//
// Synchronization is messages too: a fence flushes and then runs a barrier; post/start/
// complete/wait exchange one message per pair; a lock is granted by the target's lock queue
// (first come, first served; exclusive or shared) and released by unlock after a flush.
// Each public call holds the event loop while it runs (EventLoop::Access, re-entrant): the
// window's state is shared with its message handlers, which a progress thread may run.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "rma/rma_call.hpp"
#include "rma/window_error.hpp"
#include "rma/window_segment.hpp"
#include "runtime/communicator.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/remote_memory.hpp"
#include "runtime/request.hpp"
#include "runtime/support/copy_bytes.hpp"

namespace halyard {

// How a window's memory came to be (MPI's four flavors).
enum class WindowFlavor : std::int32_t {
  kCreate,    // the caller's memory
  kAllocate,  // allocated by the window: one shared segment per node
  kShared,    // kAllocate on one node, each rank's part after the previous one's
  kDynamic,   // none at first; attach() / detach() memory, displacements are addresses
};

enum class LockType : std::int32_t { kShared = 1, kExclusive = 2 };

// What one rank knows of another's window.
struct WindowPeer {
  std::uint64_t base = 0;  // the window's address in the peer's process
  std::int64_t size = 0;
  int disp_unit = 1;
  int pid = 0;
  std::byte* mapped = nullptr;  // the peer's window mapped in this process; null if not
  bool same_node = false;
  bool cma = false;  // single copies towards the peer may be tried
  // Another node's window exposed to remote reads and writes (RemoteMemory), and its key.
  bool remote = false;
  RemoteRegionKey remote_key;
};

class Window {
 public:
  // Collective over `comm`. `base` / `bytes`: the memory of kCreate; allocated here for the
  // allocate flavors (see base()), none for kDynamic. Displacements count `disp_unit` bytes.
  // `accumulate_function` applies accumulates at this rank as the target (rma_call.hpp).
  Window(const Communicator& comm, WindowFlavor flavor, void* base, std::int64_t bytes,
         int disp_unit, AccumulateFunction accumulate_function = accumulate_in_runtime_types);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  WindowFlavor flavor() const { return flavor_; }
  void* base() const { return base_; }
  std::int64_t bytes() const { return bytes_; }
  int disp_unit() const { return disp_unit_; }
  const WindowPeer& peer(int rank) const { return peers_[static_cast<std::size_t>(rank)]; }
  const Communicator& comm() const { return comm_; }

  // kDynamic only (WindowFault::kFlavor otherwise): memory that displacements may address.
  void attach(void* base, std::int64_t bytes);
  void detach(const void* base);

  // Starts one operation: WindowFault::kSync outside an access epoch towards the target, kRange
  // beyond its window, kSize when origin and target bytes differ. The request completes when
  // the operation is complete at the target and its result, if any, has landed; it is null when
  // the operation completed at once (a direct put or get) or was packed (may_pack).
  Request start(RmaCall&& call);
  // A put or get of `bytes` contiguous bytes between `local` and `target_offset` bytes past
  // displacement `disp` in the target's window, done at once by a load/store copy (a window
  // mapped here) or one CMA copy, or else, when `may_pack`, joined to the target's pack as
  // start() would; false when none of that applies (no epoch towards the target, beyond its
  // window, a dynamic window, too large to pack, a one-sided transfer's turn): the caller then
  // starts the operation in full, which also reports any error. What osu_put_latency's,
  // osu_put_bw's and most programs' small puts are: no RmaCall, no block list.
  bool try_contiguous(RmaKind kind, int target, std::int64_t disp, std::int64_t target_offset,
                      std::byte* local, std::size_t bytes, bool may_pack);
  // try_contiguous's load/store copy alone, inline and without taking the loop (the caller
  // holds it): towards another rank whose window this process maps, inside its bounds, in a
  // lock, lock_all or fence epoch. False for anything else (a post/start epoch included), and
  // the caller goes on to try_contiguous. The MPI shim's MPI_Put and MPI_Get try it first: a
  // one-byte put of osu_put_bw costs the shim's checks and this.
  bool copy_mapped(bool put, int target, std::int64_t disp, std::int64_t target_offset,
                   std::byte* local, std::size_t bytes) {
    if (target == rank_ || freed_ || !direct_paths_ || flavor_ == WindowFlavor::kDynamic) {
      return false;
    }
    const auto t = static_cast<std::size_t>(target);
    const WindowPeer& peer = peers_[t];
    if (peer.mapped == nullptr || (!fence_epoch_ && !lock_all_ && lock_type_[t] == 0)) {
      return false;
    }
    const std::int64_t offset = offset_within(peer, disp, target_offset, bytes);
    if (offset < 0) return false;
    copy_direction(put, peer.mapped + offset, local, bytes);
    return true;
  }

  // Contiguous forms of start() for C++ callers: `data` / `into` are this rank's bytes, the
  // target's are the same number of bytes from displacement `disp`. Each completes at the next
  // flush, unlock, complete or fence (like MPI_Put); the r-forms return a request that
  // completes once the operation has completed at the target and its result landed.
  void put(std::span<const std::byte> data, int target, std::int64_t disp);
  void get(std::span<std::byte> into, int target, std::int64_t disp);
  void accumulate(std::span<const std::byte> data, Datatype type, Op op, int target,
                  std::int64_t disp);
  void get_accumulate(std::span<const std::byte> data, std::span<std::byte> into, Datatype type,
                      Op op, int target, std::int64_t disp);
  // One element: *into = the target's, then the target's op= *data (get_accumulate of one).
  void fetch_and_op(const void* data, void* into, Datatype type, Op op, int target,
                    std::int64_t disp);
  // One element of `bytes` bytes: *into = the target's; the target's = *value if its bytes
  // equalled *compare's.
  void compare_and_swap(const void* value, const void* compare, void* into, std::size_t bytes,
                        int target, std::int64_t disp);
  Request rput(std::span<const std::byte> data, int target, std::int64_t disp);
  Request rget(std::span<std::byte> into, int target, std::int64_t disp);

  void flush(int target);
  void flush_all();
  void sync() const;

  // Closes the fence epoch (completing every operation) and opens the next, unless
  // `open_next` is false (MPI_MODE_NOSUCCEED).
  void fence(bool open_next = true);
  void post(const std::vector<int>& ranks);
  void start_access(const std::vector<int>& ranks);
  void complete();
  void wait();
  bool test();
  void lock(LockType type, int target);
  void unlock(int target);
  void lock_all();
  void unlock_all();
  // Collective: waits until every rank is done with the window, then stops serving it.
  void free();

  // Window ranks of `world_ranks` (a group); WindowFault::kRank for one outside the window.
  std::vector<int> window_ranks(const std::vector<int>& world_ranks) const;

 private:
  // The byte offset in `peer`'s window of `bytes` bytes from `target_offset` past displacement
  // `disp`, or -1 when the arithmetic overflows or the bytes reach outside the window.
  static std::int64_t offset_within(const WindowPeer& peer, std::int64_t disp,
                                    std::int64_t target_offset, std::size_t bytes) {
    std::int64_t offset = 0;
    if (__builtin_mul_overflow(disp, peer.disp_unit, &offset) ||
        __builtin_add_overflow(offset, target_offset, &offset) || offset < 0 ||
        static_cast<std::uint64_t>(offset) + bytes > static_cast<std::uint64_t>(peer.size)) {
      return -1;
    }
    return offset;
  }
  // A put copies `local` to the target's `remote` bytes, a get the other way.
  static void copy_direction(bool put, std::byte* remote, std::byte* local, std::size_t bytes) {
    if (put) {
      copy_bytes(remote, local, bytes);
    } else {
      copy_bytes(local, remote, bytes);
    }
  }

  struct PendingOp {
    int target;
    std::span<std::byte> result;
    std::function<void()> result_landed;
    Request request;
  };
  // The head of an operation's message; its target blocks (offset, bytes) follow.
  struct OperationWire {
    std::uint64_t id;
    std::uint64_t sequence;  // per (origin, target): the target applies in this order
    RmaKind kind;
    AccumulateCode op;
    std::uint32_t blocks;
    std::int64_t disp;
    std::uint64_t fetch_bytes;
  };
  // An arrived operation's header, decoded once: its head and its first target block (nearly
  // every operation has one); further blocks stay in `header`, which need not be aligned.
  struct Arrived {
    OperationWire wire;
    std::span<const std::byte> header;
    std::int64_t first[2];  // offset, bytes
    static Arrived of(std::span<const std::byte> header);
  };
  struct HeldOperation {  // arrived ahead of an earlier operation of its origin
    std::vector<std::byte> header;
    std::vector<std::byte> payload;
    bool landed;
  };
  struct PackAnswer {                // what the target answers a pack with (kPackAck)
    std::uint64_t applied = 0;       // puts and accumulates
    std::vector<std::byte> fetched;  // the gets' results: (id, bytes) and the bytes, each
  };
  struct LockWaiter {
    int origin;
    LockType type;
  };

  void exchange_peers(void* own_base);
  // Across nodes: exposes this rank's window to remote reads and writes and learns the others'
  // keys (collective; nothing where the transport has no RemoteMemory or all ranks share a node).
  void exchange_remote_keys();
  // A put or get towards a peer of another node by one-sided writes or reads of its blocks,
  // and its request; an invalid request when that peer is not reached so (the caller sends a
  // message instead).
  Request start_remote(RmaCall& call, std::span<const std::int64_t> blocks);
  // Throws the first failure of a one-sided write or read since the last flush (its request,
  // if any, failed too), once: the flush that completes it reports it.
  void report_remote_failure();
  // A flush towards `target`: its epoch's count of puts and gets becomes the previous one's.
  void count_epoch(int target);
  void register_handlers();
  void unregister_handlers();
  void notify(int peer, int id, std::int32_t value);
  void notify_every_rank_and_wait(int id);
  std::byte* local_address(std::int64_t disp) const;
  bool in_access_epoch(int target) const;
  // WindowFault::kRank unless 0 <= target < size().
  void check_target(int target) const;
  bool direct(RmaCall& call, std::span<const std::int64_t> blocks);
  // A put or get towards `target` that looks alone between two flushes (the first since a
  // flush, after an epoch of at most one) towards a rank reached one-sidedly: a write or read,
  // not a pack of one (one round trip in the transport instead of one through both runtimes).
  bool looks_alone(std::size_t target) const;
  // try_contiguous's pack: one block, no RmaCall.
  bool pack_contiguous(RmaKind kind, int target, std::int64_t disp, std::int64_t target_offset,
                       std::byte* local, std::size_t bytes);
  // Appends one operation's record (lengths, header, blocks, payload) to `target`'s pack, a
  // get tracked for its `result` (and `result_landed`, taken when not null); sends the pack
  // once it is full.
  void pack_operation(std::size_t target, RmaKind kind, AccumulateCode op, std::int64_t disp,
                      std::span<const std::int64_t> blocks, std::span<const std::byte> payload,
                      std::span<std::byte> result, std::function<void()>* result_landed);
  Request start_contiguous(RmaKind kind, std::span<const std::byte> origin,
                           std::span<std::byte> result, AccumulateCode op, int target,
                           std::int64_t disp, bool may_pack);
  // Where `target`'s window is, displacement `disp` in, in this process's memory: its own
  // window, or a peer's this rank maps; null when it must be reached otherwise.
  std::byte* mapped_at(int target, std::int64_t disp) const;
  // One CMA copy of `blocks` at `remote` in `target`'s process, to (put) or from the packed
  // `local`; false when CMA is not tried towards it or the kernel refuses (then never again:
  // its operations go as messages).
  bool cma_to(int target, std::byte* local, std::uint64_t remote,
              std::span<const std::int64_t> blocks, bool put);
  void on_operation(int origin, const Arrived& arrived, std::span<const std::byte> payload);
  std::byte* landing_address(const Arrived& arrived) const;
  void apply_operation(int origin, const Arrived& arrived, std::span<const std::byte> payload,
                       bool landed);
  void accumulate_into(AccumulateCode op, std::byte* target, const std::byte* data,
                       std::size_t bytes) const;
  // Operation `id`'s answer (a kReply, or a record of a kPackAck): its result lands, it
  // completes.
  void complete_pending(std::uint64_t id, std::span<const std::byte> payload);
  void on_pack(int origin, std::span<const std::byte> pack);
  // The record nearly every pack is made of, a put of one block in sequence with nothing held
  // from its origin, applied at once; false for any other record.
  bool apply_packed_put(int origin, const Arrived& arrived, std::span<const std::byte> payload);
  void acknowledge_packed(int origin, std::uint64_t count);
  // While a pack is applied, a small fetched result joins its answer: true if it did.
  bool answer_in_pack(std::uint64_t id, std::span<const std::byte> fetched);
  void send_pack(int target);
  // An empty buffer from spare_buffers_ (its capacity kept), or a new empty one.
  std::vector<std::byte> take_spare_buffer();
  // am_send of `header` and `payload`, whose buffer goes back to spare_buffers_ once sent.
  void send_recycling(int peer, int id, std::vector<std::byte> header,
                      std::vector<std::byte>&& payload);
  void on_lock(int origin, LockType type);
  void on_unlock(int origin, LockType type);
  void grant_waiting_locks();
  void run_until(const std::function<bool()>& done) const;

  Communicator comm_;
  EventLoop* loop_;  // comm_'s, held by every public call (found once: puts are ~300 instructions)
  int rank_ = 0;
  int size_ = 0;
  WindowFlavor flavor_ = WindowFlavor::kCreate;
  void* base_ = nullptr;
  std::int64_t bytes_ = 0;
  int disp_unit_ = 1;
  AccumulateFunction accumulate_ = nullptr;
  bool direct_paths_ = true;
  std::vector<WindowPeer> peers_;
  NodeSegment segment_;
  RemoteMemory* remote_memory_ = nullptr;
  std::unique_ptr<RemoteMemory::Region> exposed_;  // this rank's window, to other nodes
  Status remote_failure_;  // of a write or read by remote_memory_, until reported
  std::map<std::uintptr_t, std::int64_t> attached_;  // dynamic windows: base -> size
  bool freed_ = false;

  // Origin side.
  std::uint64_t next_op_ = 1;
  std::map<std::uint64_t, PendingOp> pending_;
  std::vector<int> outstanding_;         // per target: operations not yet acknowledged
  std::vector<int> grants_;              // per target: lock grants and unlock acknowledgements seen
  std::vector<std::int32_t> lock_type_;  // per target: the LockType held (0: none)
  bool lock_all_ = false;
  bool fence_epoch_ = false;
  std::vector<int> access_group_;              // start_access's targets
  std::vector<int> posts_seen_;                // per target: posts not yet consumed by a start
  std::vector<std::uint64_t> next_sequence_;   // per target: of the next operation message
  std::vector<std::vector<std::byte>> packs_;  // per target: operations packed, not yet sent
  // Buffers of packs and pack answers whose sends completed, emptied, their capacity kept for
  // the next ones (at most 8 of at most 256 KiB): a buffer allocated afresh and freed each
  // epoch cost page faults as it grew and glibc's heap trims when freed (over ofi, 28 puts of
  // 2 KiB and a flush took 0.58 ms an epoch, 0.05 ms with the buffers kept). Shared with the
  // sends' completions, which may outlive the window.
  std::shared_ptr<std::vector<std::vector<std::byte>>> spare_buffers_ =
      std::make_shared<std::vector<std::vector<std::byte>>>();
  std::vector<std::size_t> pack_answer_bytes_;  // per target: the answer the packed gets fetch
  // Per target: puts and gets since the last flush, and between the two flushes before it.
  std::vector<std::uint32_t> ops_since_flush_;
  std::vector<std::uint32_t> ops_before_flush_;

  // Target side.
  int shared_holders_ = 0;
  bool exclusive_held_ = false;
  std::deque<LockWaiter> lock_queue_;
  std::vector<int> exposure_group_;  // post's origins
  int completes_seen_ = 0;
  std::vector<std::uint64_t> expected_sequence_;              // per origin
  std::vector<std::map<std::uint64_t, HeldOperation>> held_;  // per origin, by sequence
  // While a pack is applied: its answer.
  PackAnswer* pack_answer_ = nullptr;
};

}  // namespace halyard
