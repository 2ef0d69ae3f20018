// One MPI window: its memory, its peers' memory as this rank reaches it, and its epochs.
//
// Every operation can travel one general path: an active message on the window's private
// communicator, applied by the target's progress (its event loop, or its progress thread with
// HALYARD_PROGRESS_THREAD=1) and acknowledged once applied, so a flush waits for the
// acknowledgements. Accumulates, fetch-and-op and compare-and-swap always take it: the target
// applies them one at a time with the runtime's reduction kernels, which makes them atomic per
// element against each other. Puts and gets take a shorter path when there is one
// (HALYARD_RMA_DIRECT=0 turns them off): the target's memory itself when this rank maps it (its
// own window, or an MPI_Win_allocate(_shared) window of a rank on this node: window_segment.hpp),
// else one CMA copy (process_vm_writev / readv) into a window of a rank on this node. Across
// nodes they are active messages over the transport (libfabric RMA is not used yet).
//
// Small blocking puts and accumulates towards a rank reached by messages are packed, per target,
// into one message sent when the pack is full, at the next flush (every synchronization that
// completes operations flushes first), or before any other operation to that target; the target
// applies them in order and acknowledges them by their count in one message (Open MPI's osc
// pt2pt packs alike); a packed operation has no request and no pending entry, only its target's
// count of outstanding operations. A request-based call (MPI_Rput, ...) is never packed: its
// request may be waited for alone.
//
// Synchronization is messages too: a fence flushes and then runs a barrier; post/start/
// complete/wait exchange one message per pair; a lock is granted by the target's lock queue
// (first come, first served; exclusive or shared) and released by unlock after a flush.
// Not thread-safe: callers hold the event loop (EventLoop::Access), as the handlers do.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/communicator.hpp"
#include "runtime/request.hpp"
#include "shim/info_objects.hpp"
#include "shim/typed_buffer.hpp"
#include "shim/window_segment.hpp"

namespace halyard::mpi_shim {

enum class RmaKind : std::int32_t { kPut, kGet, kAccumulate, kGetAccumulate, kCompareAndSwap };

// One operation as the origin states it (arguments checked by the caller).
struct RmaCall {
  RmaKind kind = RmaKind::kPut;
  int target = 0;
  MPI_Aint disp = 0;
  const TypeObject* target_type = nullptr;
  std::size_t target_count = 0;
  // The origin's data, packed (put, accumulates; compare-and-swap: value then comparand).
  TypedBuffer origin;
  // Where fetched data goes (get, get-accumulate, fetch-and-op, compare-and-swap).
  TypedBuffer result;
  MPI_Op op = MPI_REPLACE;
  MPI_Datatype element = MPI_BYTE;   // the predefined element of accumulates
  std::shared_ptr<void> keep_alive;  // memory `origin` points into, if the call made it
  // A blocking MPI_Put or MPI_Accumulate: nobody waits for this operation alone, so a small one
  // towards a rank reached by messages may wait, packed with others to that rank, for the next
  // flush (Window::start).
  bool may_pack = false;
};

// What one rank knows of another's window.
struct WindowPeer {
  std::uint64_t base = 0;  // the window's address in the peer's process
  MPI_Aint size = 0;
  int disp_unit = 1;
  int pid = 0;
  std::byte* mapped = nullptr;  // the peer's window mapped in this process; null if not
  bool same_node = false;
  bool cma = false;  // single copies towards the peer may be tried
};

class Window {
 public:
  // Collective over `comm`. `base` / `size`: the memory of MPI_Win_create; allocated here for
  // the allocate flavors (see base()), none for the dynamic one.
  Window(const Communicator& comm, int flavor, void* base, MPI_Aint size, int disp_unit,
         InfoEntries info);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int flavor() const { return flavor_; }
  void* base() const { return base_; }
  MPI_Aint bytes() const { return bytes_; }
  int disp_unit() const { return disp_unit_; }
  const WindowPeer& peer(int rank) const { return peers_[static_cast<std::size_t>(rank)]; }
  const Communicator& comm() const { return comm_; }

  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  std::string name;
  InfoEntries info;
  // What MPI_Win_get_attr points at for MPI_WIN_SIZE, DISP_UNIT, CREATE_FLAVOR and MODEL.
  struct {
    MPI_Aint size;
    int disp_unit;
    int flavor;
    int model;
  } attribute_values{};

  void attach(void* base, MPI_Aint size);
  void detach(const void* base);

  // Starts one operation: MPI_ERR_RMA_SYNC outside an access epoch towards the target,
  // MPI_ERR_RMA_RANGE beyond its window. The request completes when the operation is complete
  // at the target and its result, if any, has landed; it is null when the operation completed
  // at once (a direct put or get) or was packed (may_pack).
  Request start(RmaCall&& call);
  // A put or get of `bytes` contiguous bytes between `local` and `target_offset` bytes past
  // displacement `disp` in the target's window, done at once by a load/store copy (a window
  // mapped here) or one CMA copy; false when that path does not apply (no epoch towards the
  // target, beyond its window, a dynamic window, a peer reached by messages, a refused copy):
  // the caller then starts the operation in full, which also reports any error. What
  // osu_put_latency's and most programs' small puts are: no RmaCall, no block list.
  bool contiguous_direct(RmaKind kind, int target, MPI_Aint disp, std::int64_t target_offset,
                         std::byte* local, std::size_t bytes);
  void flush(int target);
  void flush_all();
  void sync() const;

  void fence(int assert);
  void post(const std::vector<int>& ranks);
  void start_access(const std::vector<int>& ranks);
  void complete();
  void wait();
  bool test();
  void lock(int type, int target);
  void unlock(int target);
  void lock_all();
  void unlock_all();
  // Collective: waits until every rank is done with the window, then stops serving it.
  void free();

  // Window ranks of `world_ranks` (a group); MPI_ERR_RANK for one outside the window.
  std::vector<int> window_ranks(const std::vector<int>& world_ranks) const;

 private:
  struct PendingOp {
    int target;
    TypedBuffer result;
    Request request;
  };
  struct HeldOperation {  // arrived ahead of an earlier operation of its origin
    std::vector<std::byte> header;
    std::vector<std::byte> payload;
    bool landed;
  };
  struct LockWaiter {
    int origin;
    int type;
  };

  void exchange_peers(void* own_base);
  void allocate_memory(bool all_on_node);
  void register_handlers();
  void unregister_handlers();
  void notify(int peer, int id, std::int32_t value);
  void notify_every_rank_and_wait(int id);
  std::byte* local_address(MPI_Aint disp) const;
  bool in_access_epoch(int target) const;
  bool direct(RmaCall& call, std::span<const std::int64_t> blocks);
  // Where `target`'s window is, displacement `disp` in, in this process's memory: its own
  // window, or a peer's this rank maps; null when it must be reached otherwise.
  std::byte* mapped_at(int target, MPI_Aint disp) const;
  // One CMA copy of `blocks` at `remote` in `target`'s process, to (put) or from the packed
  // `local`; false when CMA is not tried towards it or the kernel refuses (then never again:
  // its operations go as messages).
  bool cma_to(int target, std::byte* local, std::uint64_t remote,
              std::span<const std::int64_t> blocks, bool put);
  void on_operation(int origin, std::span<const std::byte> header,
                    std::span<const std::byte> payload);
  std::byte* landing_address(std::span<const std::byte> header) const;
  void apply_operation(int origin, std::span<const std::byte> header,
                       std::span<const std::byte> payload, bool landed);
  void on_reply(std::span<const std::byte> header, std::span<const std::byte> payload);
  void on_pack(int origin, std::span<const std::byte> pack);
  void acknowledge_packed(int origin, std::uint64_t count);
  void send_pack(int target);
  void on_lock(int origin, int type);
  void on_unlock(int origin, int type);
  void grant_waiting_locks();
  void run_until(const std::function<bool()>& done) const;

  Communicator comm_;
  int rank_ = 0;
  int size_ = 0;
  int flavor_ = MPI_WIN_FLAVOR_CREATE;
  void* base_ = nullptr;
  MPI_Aint bytes_ = 0;
  int disp_unit_ = 1;
  bool direct_paths_ = true;
  std::vector<WindowPeer> peers_;
  NodeSegment segment_;
  std::map<std::uintptr_t, MPI_Aint> attached_;  // dynamic windows: base -> size
  bool freed_ = false;

  // Origin side.
  std::uint64_t next_op_ = 1;
  std::map<std::uint64_t, PendingOp> pending_;
  std::vector<int> outstanding_;  // per target: operations not yet acknowledged
  std::vector<int> grants_;       // per target: lock grants and unlock acknowledgements seen
  std::vector<int> lock_type_;    // per target: the lock held (0: none)
  bool lock_all_ = false;
  bool fence_epoch_ = false;
  std::vector<int> access_group_;              // MPI_Win_start's targets
  std::vector<int> posts_seen_;                // per target: posts not yet consumed by a start
  std::vector<std::uint64_t> next_sequence_;   // per target: of the next operation message
  std::vector<std::vector<std::byte>> packs_;  // per target: operations packed, not yet sent

  // Target side.
  int shared_holders_ = 0;
  bool exclusive_held_ = false;
  std::deque<LockWaiter> lock_queue_;
  std::vector<int> exposure_group_;  // MPI_Win_post's origins
  int completes_seen_ = 0;
  std::vector<std::uint64_t> expected_sequence_;              // per origin
  std::vector<std::map<std::uint64_t, HeldOperation>> held_;  // per origin, by sequence
  // While a pack is applied: how many of its operations were, acknowledged in one message.
  std::uint64_t* pack_acks_ = nullptr;
};

}  // namespace halyard::mpi_shim
