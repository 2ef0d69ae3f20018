#include "rma/window.hpp"

#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <span>
#include <utility>

#include "collectives/collectives.hpp"
#include "runtime/datatypes/reduction.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/node_memory.hpp"
#include "runtime/support/cma_copy.hpp"
#include "runtime/support/copy_bytes.hpp"

namespace halyard {

namespace {

// Active-message ids on the window's private communicator.
enum MessageId : int {
  kOperation = 1,
  kReply,
  kLock,
  kUnlock,
  kGrant,
  kPost,
  kComplete,
  kPack,
  kPackAck
};

// Packing (window.hpp): an operation's payload (a get's: its result) up to kMaxPackedPayload
// bytes may join its target's pack, which is sent before an operation would take it, or the
// answer to its gets, past kPackBytes, at a flush, or when the epoch ends. Over ofi's tcp
// provider each message costs about 25 us whether it carries 32 or 64 KiB, so packs are large:
// with 64 KiB packs (one eager message) and gets packed up to 16 KiB, 32 gets of 32 KiB and a
// flush took 684 us and 64 of 16 KiB 577; with these bounds (a pack above 64 KiB goes by the
// transport's rendezvous) 358 and 374, Open MPI's tcp path 335 for the first (packs the size of
// one eager active message, 8 KiB, were tried as well: osu_put_bw 1.3-2.4x slower from 64 B to
// 16 KiB). Each record of a pack is its header's and its payload's length (two uint32), the
// header, then the payload. The target answers a pack with one kPackAck: its header the count of
// puts and accumulates applied, its payload the gets' results, each as (id, bytes) (two uint64)
// and the bytes.
constexpr std::size_t kMaxPackedPayload = 32 * 1024;
constexpr std::size_t kPackBytes = 256 * 1024;
// The head of a get's result in a pack's answer: its id and byte count.
constexpr std::size_t kAnswerRecordBytes = 2 * sizeof(std::uint64_t);
// Sent packs' and answers' buffers kept for reuse (spare_buffers_), at most kPackBytes each:
// enough for the packs an epoch of 64 puts of 32 KiB keeps in flight.
constexpr std::size_t kSpareBuffers = 8;

// What every rank tells the others when a window is made.
struct PeerRecord {
  std::uint64_t base;
  std::int64_t size;
  std::int32_t disp_unit;
  std::int32_t pid;
  std::uint32_t serial;
  std::int32_t same_node;  // filled by the reader
};

constexpr std::size_t kSegmentAlignment = 64;
constexpr std::chrono::seconds kPeerNoticeGrace{2};
constexpr std::size_t kMaxIovecs = 512;

// A message in flight and what its bytes live in until the transport is done with them.
struct Outgoing {
  std::vector<std::byte> header;
  std::vector<std::byte> owned_payload;
  std::shared_ptr<void> keep_alive;
};

template <typename T>
std::vector<std::byte> bytes_of_value(const T& value) {
  std::vector<std::byte> out(sizeof value);
  std::memcpy(out.data(), &value, sizeof value);
  return out;
}

// A message whose header is one value and which has no payload, kept alive until the transport
// is done with it.
template <typename T>
void send_value(const Communicator& comm, int peer, int id, const T& value) {
  auto header = std::make_shared<std::vector<std::byte>>(bytes_of_value(value));
  comm.am_send(peer, id, *header, {}, [header](const Status&) {});
}

// An operation's header: its wire head, then its target blocks (offset, bytes).
// (A template: the wire head is Window's own type.)
template <typename Wire>
void append_operation_header(std::vector<std::byte>& out, const Wire& wire,
                             std::span<const std::int64_t> blocks) {
  const auto* wire_bytes = reinterpret_cast<const std::byte*>(&wire);
  const auto* block_bytes = reinterpret_cast<const std::byte*>(blocks.data());
  out.insert(out.end(), wire_bytes, wire_bytes + sizeof wire);
  out.insert(out.end(), block_bytes, block_bytes + blocks.size() * sizeof(std::int64_t));
}

template <typename T>
T value_of(std::span<const std::byte> bytes) {
  T value{};
  std::memcpy(&value, bytes.data(), std::min(sizeof value, bytes.size()));
  return value;
}

// The bytes of target data an operation covers, from its origin side: a fetch's result, half of
// compare-and-swap's (value, comparand), else the origin's data.
std::size_t data_bytes(RmaKind kind, AccumulateCode op, std::span<const std::byte> origin,
                       std::span<const std::byte> result) {
  const bool fetch_only =
      kind == RmaKind::kGet || (kind == RmaKind::kGetAccumulate && op.op == kNoOpCode);
  return fetch_only                         ? result.size()
         : kind == RmaKind::kCompareAndSwap ? origin.size() / 2
                                            : origin.size();
}

std::size_t total_bytes(std::span<const std::int64_t> blocks) {
  std::size_t total = 0;
  for (std::size_t i = 1; i < blocks.size(); i += 2) total += static_cast<std::size_t>(blocks[i]);
  return total;
}

// One CMA copy between `local` (packed) and `blocks` at `remote` in process `pid`; false when
// the kernel refuses (the caller falls back to messages). One block, nearly every operation,
// takes the runtime's copy, which goes through a bounce buffer where the two sides lie at
// different offsets modulo 32 bytes (the kernel copies those at a third of its speed); several
// go in one system call a kMaxIovecs blocks.
bool cma_copy_blocks(int pid, std::byte* local, std::uint64_t remote,
                     std::span<const std::int64_t> blocks, bool write) {
  if (blocks.size() == 2) {
    const std::uint64_t at = remote + static_cast<std::uint64_t>(blocks[0]);
    const auto bytes = static_cast<std::size_t>(blocks[1]);
    return (write ? cma_write(pid, at, local, bytes) : cma_read(pid, at, local, bytes)) == 0;
  }
  // Up to kMaxIovecs remote blocks a call, described on the stack (no heap on a put's path).
  std::array<iovec, kMaxIovecs> remote_iov;
  std::size_t position = 0;
  for (std::size_t first = 0; first < blocks.size(); first += 2 * kMaxIovecs) {
    std::size_t count = 0, chunk = 0;
    for (std::size_t i = first; i < blocks.size() && i < first + 2 * kMaxIovecs; i += 2) {
      remote_iov[count++] = {
          reinterpret_cast<void*>(remote + static_cast<std::uint64_t>(blocks[i])),
          static_cast<std::size_t>(blocks[i + 1])};
      chunk += static_cast<std::size_t>(blocks[i + 1]);
    }
    iovec local_iov{local + position, chunk};
    ssize_t moved = write ? process_vm_writev(pid, &local_iov, 1, remote_iov.data(), count, 0)
                          : process_vm_readv(pid, &local_iov, 1, remote_iov.data(), count, 0);
    if (moved != static_cast<ssize_t>(chunk)) return false;
    position += chunk;
  }
  return true;
}

bool direct_paths_enabled() {
  const char* value = std::getenv("HALYARD_RMA_DIRECT");
  return value == nullptr || std::strcmp(value, "0") != 0;
}

std::uint32_t next_serial() {
  static std::atomic<std::uint32_t> serial{0};
  return serial.fetch_add(1);
}

// A contiguous operation's target: one block from the displacement.
struct OneBlock {
  explicit OneBlock(std::size_t bytes) : pair{0, static_cast<std::int64_t>(bytes)} {}
  std::int64_t pair[2];
};

}  // namespace

void accumulate_in_runtime_types(AccumulateCode code, std::byte* target, const std::byte* data,
                                 std::size_t bytes) {
  const auto type = static_cast<Datatype>(code.element);
  reduce_into(static_cast<Op>(code.op), type, target, data, bytes / datatype_size(type));
}

Window::Window(const Communicator& comm, WindowFlavor flavor, void* base, std::int64_t size,
               int disp_unit, AccumulateFunction accumulate_function)
    : comm_(comm.dup()),
      loop_(&comm_.loop()),
      rank_(comm_.rank()),
      size_(comm_.size()),
      flavor_(flavor),
      base_(base),
      bytes_(size),
      disp_unit_(disp_unit),
      accumulate_(accumulate_function),
      direct_paths_(direct_paths_enabled()) {
  const auto n = static_cast<std::size_t>(size_);
  outstanding_.assign(n, 0);
  grants_.assign(n, 0);
  lock_type_.assign(n, 0);
  posts_seen_.assign(n, 0);
  next_sequence_.assign(n, 0);
  packs_.resize(n);
  pack_answer_bytes_.assign(n, 0);
  ops_since_flush_.assign(n, 0);
  ops_before_flush_.assign(n, 0);
  expected_sequence_.assign(n, 0);
  held_.resize(n);
  EventLoop::Access access(*loop_);
  register_handlers();
  exchange_peers(base);
}

Window::~Window() {
  EventLoop::Access access(*loop_);
  if (!freed_) unregister_handlers();
}

void Window::unregister_handlers() {
  for (int id = kOperation; id <= kPackAck; ++id) comm_.unregister_am_handler(id);
}

// A synchronization message: one int.
void Window::notify(int peer, int id, std::int32_t value) {
  send_value(comm_, peer, id, value);
}

void Window::register_handlers() {
  comm_.register_am_handler(
      kOperation,
      [this](int origin, std::span<const std::byte> header, std::span<const std::byte> payload) {
        on_operation(origin, Arrived::of(header), payload);
      },
      [this](int, std::span<const std::byte> header, std::size_t payload_bytes) -> void* {
        const Arrived arrived = Arrived::of(header);
        std::byte* at = landing_address(arrived);
        if (at == nullptr || arrived.first[1] != static_cast<std::int64_t>(payload_bytes)) {
          return nullptr;
        }
        return at;
      });
  comm_.register_am_handler(
      kReply,
      [this](int, std::span<const std::byte> header, std::span<const std::byte> payload) {
        complete_pending(value_of<std::uint64_t>(header), payload);
      },
      [this](int, std::span<const std::byte> header, std::size_t payload_bytes) -> void* {
        auto it = pending_.find(value_of<std::uint64_t>(header));
        if (it == pending_.end() || it->second.result.size() != payload_bytes) return nullptr;
        return it->second.result.data();
      });
  comm_.register_am_handler(kLock, [this](int origin, std::span<const std::byte> header, auto) {
    on_lock(origin, static_cast<LockType>(value_of<std::int32_t>(header)));
  });
  comm_.register_am_handler(kUnlock, [this](int origin, std::span<const std::byte> header, auto) {
    on_unlock(origin, static_cast<LockType>(value_of<std::int32_t>(header)));
  });
  comm_.register_am_handler(
      kGrant, [this](int target, auto, auto) { ++grants_[static_cast<std::size_t>(target)]; });
  comm_.register_am_handler(
      kPost, [this](int target, auto, auto) { ++posts_seen_[static_cast<std::size_t>(target)]; });
  comm_.register_am_handler(kComplete, [this](int, auto, auto) { ++completes_seen_; });
  comm_.register_am_handler(kPack, [this](int origin, auto, std::span<const std::byte> payload) {
    on_pack(origin, payload);
  });
  comm_.register_am_handler(kPackAck, [this](int target, std::span<const std::byte> header,
                                             std::span<const std::byte> fetched) {
    outstanding_[static_cast<std::size_t>(target)] -=
        static_cast<int>(value_of<std::uint64_t>(header));
    std::uint64_t record[2];
    for (std::size_t at = 0; at + sizeof record <= fetched.size();) {
      std::memcpy(record, fetched.data() + at, sizeof record);
      at += sizeof record;
      complete_pending(record[0], fetched.subspan(at, record[1]));
      at += record[1];
    }
  });
}

// Tells every rank this one's window and learns theirs; for the allocate flavors, makes the
// memory first (one segment per node when the shm transport is there).
void Window::exchange_peers(void* own_base) {
  std::vector<char> on_node(static_cast<std::size_t>(size_));
  for (int r = 0; r < size_; ++r) on_node[static_cast<std::size_t>(r)] = comm_.same_node(rank_, r);
  if (flavor_ == WindowFlavor::kShared && comm_.node_count() != 1) {
    window_fault(WindowFault::kShared,
                 "a shared window (MPI_Win_allocate_shared) needs every rank of the communicator "
                 "on one node");
  }
  PeerRecord mine{reinterpret_cast<std::uint64_t>(own_base), bytes_,        disp_unit_,
                  static_cast<std::int32_t>(getpid()),       next_serial(), 0};
  std::vector<PeerRecord> records(static_cast<std::size_t>(size_));
  allgather(comm_, &mine, records.data(), sizeof mine, Datatype::kUint8);

  const bool allocating = flavor_ == WindowFlavor::kAllocate || flavor_ == WindowFlavor::kShared;
  std::vector<std::size_t> offsets(static_cast<std::size_t>(size_), 0);
  std::size_t segment_bytes = 0;
  int leader = -1;
  if (allocating) {
    for (int r = 0; r < size_; ++r) {
      if (!on_node[static_cast<std::size_t>(r)]) continue;
      if (leader < 0) leader = r;
      offsets[static_cast<std::size_t>(r)] = segment_bytes;
      auto part = static_cast<std::size_t>(records[static_cast<std::size_t>(r)].size);
      segment_bytes += (part + kSegmentAlignment - 1) / kSegmentAlignment * kSegmentAlignment;
    }
  }
  if (leader >= 0) {
    const PeerRecord& lead = records[static_cast<std::size_t>(leader)];
    std::string segment_name =
        "/halyard-win-" + std::to_string(lead.pid) + "-" + std::to_string(lead.serial);
    segment_bytes = std::max(segment_bytes, kSegmentAlignment);
    if (leader == rank_) segment_ = NodeSegment(segment_name, segment_bytes, true);
    barrier(comm_);
    if (leader != rank_) segment_ = NodeSegment(segment_name, segment_bytes, false);
    barrier(comm_);
    segment_.unlink();
    base_ = segment_.data() + offsets[static_cast<std::size_t>(rank_)];
  }

  NodeMemory* node = node_memory_of(comm_);
  const bool single_copy = node != nullptr && node->single_copy_usable();
  peers_.resize(static_cast<std::size_t>(size_));
  for (int r = 0; r < size_; ++r) {
    const PeerRecord& record = records[static_cast<std::size_t>(r)];
    WindowPeer& peer = peers_[static_cast<std::size_t>(r)];
    peer.base = record.base;
    peer.size = record.size;
    peer.disp_unit = record.disp_unit;
    peer.pid = record.pid;
    peer.same_node = on_node[static_cast<std::size_t>(r)];
    if (leader >= 0 && peer.same_node)
      peer.mapped = segment_.data() + offsets[static_cast<std::size_t>(r)];
    peer.cma = single_copy && peer.same_node && !allocating && r != rank_;
  }
  if (!peers_.empty())
    peers_[static_cast<std::size_t>(rank_)].mapped = static_cast<std::byte*>(base_);
  exchange_remote_keys();
}

void Window::exchange_remote_keys() {
  remote_memory_ = remote_memory_of(comm_);
  // Every rank decides alike (the transport and the communicator's nodes are the job's).
  if (remote_memory_ == nullptr || comm_.node_count() == 1 || flavor_ == WindowFlavor::kDynamic) {
    return;
  }
  struct KeyRecord {
    RemoteRegionKey key;
    std::uint64_t exposed;
  } mine{};
  if (base_ != nullptr && bytes_ > 0) {
    exposed_ = remote_memory_->expose(base_, static_cast<std::size_t>(bytes_));
    if (exposed_ != nullptr) mine = {exposed_->key(), 1};
  }
  std::vector<KeyRecord> records(static_cast<std::size_t>(size_));
  allgather(comm_, &mine, records.data(), sizeof mine, Datatype::kUint8);
  for (int r = 0; r < size_; ++r) {
    const KeyRecord& record = records[static_cast<std::size_t>(r)];
    WindowPeer& peer = peers_[static_cast<std::size_t>(r)];
    peer.remote = record.exposed != 0 && !peer.same_node && direct_paths_;
    peer.remote_key = record.key;
  }
}

std::vector<int> Window::window_ranks(const std::vector<int>& world_ranks) const {
  std::vector<int> ranks;
  for (int world : world_ranks) {
    int rank = comm_.rank_of_world(world);
    if (rank < 0)
      window_fault(WindowFault::kRank, "a rank of the group is not in the window's group");
    ranks.push_back(rank);
  }
  return ranks;
}

void Window::attach(void* base, std::int64_t size) {
  EventLoop::Access access(*loop_);
  if (flavor_ != WindowFlavor::kDynamic) {
    window_fault(WindowFault::kFlavor, "attach needs a dynamic window (MPI_Win_create_dynamic)");
  }
  attached_[reinterpret_cast<std::uintptr_t>(base)] = size;
}

void Window::detach(const void* base) {
  EventLoop::Access access(*loop_);
  if (flavor_ != WindowFlavor::kDynamic) {
    window_fault(WindowFault::kFlavor, "detach needs a dynamic window (MPI_Win_create_dynamic)");
  }
  if (attached_.erase(reinterpret_cast<std::uintptr_t>(base)) == 0) {
    window_fault(WindowFault::kAttach, "detach: no memory was attached at that address");
  }
}

std::byte* Window::local_address(std::int64_t disp) const {
  if (flavor_ == WindowFlavor::kDynamic) return reinterpret_cast<std::byte*>(disp);
  return static_cast<std::byte*>(base_) + disp * disp_unit_;
}

bool Window::in_access_epoch(int target) const {
  return fence_epoch_ || lock_all_ || lock_type_[static_cast<std::size_t>(target)] != 0 ||
         std::find(access_group_.begin(), access_group_.end(), target) != access_group_.end();
}

void Window::run_until(const std::function<bool()>& done) const {
  if (!done()) loop_->run_until(done);
}

void Window::check_target(int target) const {
  if (target < 0 || target >= size_) [[unlikely]] {
    window_fault(WindowFault::kRank, "invalid target rank " + std::to_string(target) +
                                         " (window size " + std::to_string(size_) + ")");
  }
}

Request Window::start(RmaCall&& call) {
  EventLoop::Access access(*loop_);
  if (freed_) window_fault(WindowFault::kFreed, "the window was freed");
  check_target(call.target);
  if (!in_access_epoch(call.target)) {
    window_fault(WindowFault::kSync,
                 "no access epoch is open towards rank " + std::to_string(call.target) +
                     " (call MPI_Win_fence, MPI_Win_start or MPI_Win_lock first)");
  }
  const std::span<const std::int64_t> blocks = call.target_blocks;
  const WindowPeer& peer = peers_[static_cast<std::size_t>(call.target)];
  if (flavor_ != WindowFlavor::kDynamic) {
    const std::int64_t start = static_cast<std::int64_t>(call.disp) * peer.disp_unit;
    for (std::size_t i = 0; i < blocks.size(); i += 2) {
      if (start + blocks[i] < 0 || start + blocks[i] + blocks[i + 1] > peer.size) {
        window_fault(WindowFault::kRange, "the operation reaches beyond the window of rank " +
                                              std::to_string(call.target) + " (" +
                                              std::to_string(peer.size) + " bytes)");
      }
    }
  }
  const std::size_t target_bytes = total_bytes(blocks);
  const std::size_t origin_bytes = data_bytes(call.kind, call.op, call.origin, call.result);
  if (origin_bytes != target_bytes) {
    window_fault(WindowFault::kSize, "the origin's data (" + std::to_string(origin_bytes) +
                                         " bytes) and the target's (" +
                                         std::to_string(target_bytes) + " bytes) differ");
  }
  if (direct_paths_ && (call.kind == RmaKind::kPut || call.kind == RmaKind::kGet) &&
      direct(call, blocks)) {
    return {};  // complete already: no request to make (a caller that needs one makes it)
  }
  const auto t = static_cast<std::size_t>(call.target);
  ++outstanding_[t];
  const std::span<const std::byte> payload = call.origin;
  const bool put_or_get = call.kind == RmaKind::kPut || call.kind == RmaKind::kGet;
  const bool alone = put_or_get && looks_alone(t);
  if (put_or_get) ++ops_since_flush_[t];
  const bool packed = call.may_pack && !alone &&
                      (((call.kind == RmaKind::kPut || call.kind == RmaKind::kAccumulate) &&
                        payload.size() <= kMaxPackedPayload) ||
                       (call.kind == RmaKind::kGet && call.result.size() <= kMaxPackedPayload));
  if (!packed && put_or_get) {
    // One-sided across nodes; it takes no sequence number (the target applies nothing).
    Request request = start_remote(call, blocks);
    if (request.valid()) return request;
  }
  if (packed) {
    pack_operation(t, call.kind, call.op, call.disp, blocks, payload, call.result,
                   &call.result_landed);
    return {};
  }
  const std::uint64_t id = next_op_++;
  const OperationWire wire{id,
                           next_sequence_[t]++,
                           call.kind,
                           call.op,
                           static_cast<std::uint32_t>(blocks.size() / 2),
                           call.disp,
                           call.result.size()};
  send_pack(call.target);  // what was packed before goes first
  auto message = std::make_shared<Outgoing>();
  append_operation_header(message->header, wire, blocks);
  message->keep_alive = std::move(call.keep_alive);
  Request request = Request::make_pending(*loop_);
  pending_.emplace(id, PendingOp{call.target, call.result, std::move(call.result_landed), request});
  comm_.am_send(call.target, kOperation, message->header, payload, [message](const Status&) {});
  return request;
}

Request Window::start_remote(RmaCall& call, std::span<const std::int64_t> blocks) {
  constexpr std::size_t kMaxRemoteBlocks = 16;  // more: one message beats a write per block
  const WindowPeer& peer = peers_[static_cast<std::size_t>(call.target)];
  if (!peer.remote || blocks.empty() || blocks.size() / 2 > kMaxRemoteBlocks) return {};
  Request request = Request::make_pending(*loop_);
  // What lives until the last block's completion: the origin's memory, the result's unpack
  // step, the request.
  struct InFlight {
    int target;
    std::size_t blocks_left;
    Status status;
    std::shared_ptr<void> keep_alive;
    std::function<void()> result_landed;
    Request request;
  };
  auto flight = std::make_shared<InFlight>(InFlight{call.target, blocks.size() / 2, Status{},
                                                    std::move(call.keep_alive),
                                                    std::move(call.result_landed), request});
  const bool put = call.kind == RmaKind::kPut;
  std::byte* local = put ? const_cast<std::byte*>(call.origin.data()) : call.result.data();
  const int world = comm_.world_rank(call.target);
  const auto start = static_cast<std::uint64_t>(call.disp * peer.disp_unit);
  std::size_t position = 0;
  for (std::size_t i = 0; i < blocks.size(); i += 2) {
    const auto bytes = static_cast<std::size_t>(blocks[i + 1]);
    const std::uint64_t offset = start + static_cast<std::uint64_t>(blocks[i]);
    Completion done = [this, flight](const Status& status) {
      if (!status.ok() && flight->status.ok()) flight->status = status;
      if (!status.ok() && remote_failure_.ok()) remote_failure_ = status;
      if (--flight->blocks_left > 0) return;
      if (flight->status.ok() && flight->result_landed) flight->result_landed();
      --outstanding_[static_cast<std::size_t>(flight->target)];
      flight->request.complete(flight->status);
    };
    if (put) {
      remote_memory_->write(world, local + position, bytes, peer.remote_key, offset,
                            std::move(done));
    } else {
      remote_memory_->read(world, local + position, bytes, peer.remote_key, offset,
                           std::move(done));
    }
    position += bytes;
  }
  return request;
}

void Window::send_pack(int target) {
  std::vector<std::byte>& pack = packs_[static_cast<std::size_t>(target)];
  if (pack.empty()) return;
  pack_answer_bytes_[static_cast<std::size_t>(target)] = 0;
  send_recycling(target, kPack, {}, std::move(pack));
  pack.clear();  // moved from: empty, and its next operation takes a spare buffer
}

std::vector<std::byte> Window::take_spare_buffer() {
  std::vector<std::byte> buffer;
  if (!spare_buffers_->empty()) {
    buffer = std::move(spare_buffers_->back());
    spare_buffers_->pop_back();
  }
  return buffer;
}

void Window::send_recycling(int peer, int id, std::vector<std::byte> header,
                            std::vector<std::byte>&& payload) {
  auto message = std::make_shared<Outgoing>();
  message->header = std::move(header);
  message->owned_payload = std::move(payload);
  comm_.am_send(peer, id, message->header, message->owned_payload,
                [message, spares = spare_buffers_](const Status&) {
                  std::vector<std::byte>& sent = message->owned_payload;
                  if (sent.capacity() > 0 && spares->size() < kSpareBuffers) {
                    sent.clear();
                    spares->push_back(std::move(sent));
                  }
                });
}

// A pack's operations one after the other, as if each had come alone, answered together
// (kPackAck: the count of puts and accumulates, the gets' results).
void Window::on_pack(int origin, std::span<const std::byte> pack) {
  PackAnswer answer;
  pack_answer_ = &answer;
  std::uint32_t lengths[2];
  for (std::size_t at = 0; at + sizeof lengths <= pack.size();) {
    std::memcpy(lengths, pack.data() + at, sizeof lengths);
    at += sizeof lengths;
    const std::span<const std::byte> header = pack.subspan(at, lengths[0]);
    const std::span<const std::byte> payload = pack.subspan(at + lengths[0], lengths[1]);
    const Arrived arrived = Arrived::of(header);
    if (!apply_packed_put(origin, arrived, payload)) on_operation(origin, arrived, payload);
    at += std::size_t{lengths[0]} + lengths[1];
  }
  pack_answer_ = nullptr;
  if (answer.applied > 0 || !answer.fetched.empty()) {
    send_recycling(origin, kPackAck, bytes_of_value(answer.applied), std::move(answer.fetched));
  }
}

bool Window::apply_packed_put(int origin, const Arrived& arrived,
                              std::span<const std::byte> payload) {
  const OperationWire& wire = arrived.wire;
  const auto o = static_cast<std::size_t>(origin);
  if (wire.kind != RmaKind::kPut || wire.id != 0 || wire.blocks != 1 ||
      wire.sequence != expected_sequence_[o] || !held_[o].empty() ||
      arrived.first[1] != static_cast<std::int64_t>(payload.size())) {
    return false;
  }
  copy_bytes(local_address(wire.disp) + arrived.first[0], payload.data(), payload.size());
  ++expected_sequence_[o];
  ++pack_answer_->applied;
  return true;
}

void Window::acknowledge_packed(int origin, std::uint64_t count) {
  send_value(comm_, origin, kPackAck, count);
}

bool Window::answer_in_pack(std::uint64_t id, std::span<const std::byte> fetched) {
  if (pack_answer_ == nullptr || fetched.size() > kMaxPackedPayload) return false;
  const std::uint64_t record[2] = {id, fetched.size()};
  static_assert(sizeof record == kAnswerRecordBytes);
  const auto* record_bytes = reinterpret_cast<const std::byte*>(record);
  std::vector<std::byte>& out = pack_answer_->fetched;
  if (out.capacity() == 0) out = take_spare_buffer();
  out.insert(out.end(), record_bytes, record_bytes + sizeof record);
  out.insert(out.end(), fetched.begin(), fetched.end());
  return true;
}

std::byte* Window::mapped_at(int target, std::int64_t disp) const {
  if (target == rank_) return local_address(disp);
  const WindowPeer& peer = peers_[static_cast<std::size_t>(target)];
  return peer.mapped != nullptr ? peer.mapped + disp * peer.disp_unit : nullptr;
}

bool Window::cma_to(int target, std::byte* local, std::uint64_t remote,
                    std::span<const std::int64_t> blocks, bool put) {
  WindowPeer& peer = peers_[static_cast<std::size_t>(target)];
  if (!peer.cma) return false;
  if (!cma_copy_blocks(peer.pid, local, remote, blocks, put)) {
    peer.cma = false;  // refused (ptrace scope, say): messages from now on
    return false;
  }
  return true;
}

bool Window::try_contiguous(RmaKind kind, int target, std::int64_t disp, std::int64_t target_offset,
                            std::byte* local, std::size_t bytes, bool may_pack) {
  EventLoop::Access access(*loop_);
  if (freed_ || flavor_ == WindowFlavor::kDynamic) return false;
  const WindowPeer& peer = peers_[static_cast<std::size_t>(target)];
  const std::int64_t offset = offset_within(peer, disp, target_offset, bytes);
  if (offset < 0 || !in_access_epoch(target)) return false;
  const bool put = kind == RmaKind::kPut;
  if (direct_paths_) {
    if (std::byte* at = mapped_at(target, disp)) {
      copy_direction(put, at + target_offset, local, bytes);
      return true;
    }
    const std::int64_t block[2] = {offset, static_cast<std::int64_t>(bytes)};
    if (cma_to(target, local, peer.base, block, put)) return true;
  }
  return may_pack && pack_contiguous(kind, target, disp, target_offset, local, bytes);
}

bool Window::looks_alone(std::size_t target) const {
  return peers_[target].remote && ops_since_flush_[target] == 0 && ops_before_flush_[target] <= 1;
}

bool Window::pack_contiguous(RmaKind kind, int target, std::int64_t disp,
                             std::int64_t target_offset, std::byte* local, std::size_t bytes) {
  const auto t = static_cast<std::size_t>(target);
  if (bytes > kMaxPackedPayload || looks_alone(t)) return false;
  ++outstanding_[t];
  ++ops_since_flush_[t];
  const bool get = kind == RmaKind::kGet;
  const std::int64_t block[2] = {target_offset, static_cast<std::int64_t>(bytes)};
  const std::span<std::byte> data{local, bytes};
  pack_operation(t, kind, AccumulateCode{}, disp, block, get ? std::span<const std::byte>{} : data,
                 get ? data : std::span<std::byte>{}, nullptr);
  return true;
}

void Window::pack_operation(std::size_t target, RmaKind kind, AccumulateCode op, std::int64_t disp,
                            std::span<const std::int64_t> blocks,
                            std::span<const std::byte> payload, std::span<std::byte> result,
                            std::function<void()>* result_landed) {
  // A pack, and the answer to its gets, each stay within kPackBytes: an operation that would
  // take either past it starts the next pack.
  std::uint32_t lengths[2] = {
      static_cast<std::uint32_t>(sizeof(OperationWire) + blocks.size_bytes()),
      static_cast<std::uint32_t>(payload.size())};
  const std::size_t record = sizeof lengths + lengths[0] + lengths[1];
  const std::size_t answer = result.empty() ? 0 : kAnswerRecordBytes + result.size();
  std::vector<std::byte>& pack = packs_[target];
  if (!pack.empty() &&
      (pack.size() + record > kPackBytes || pack_answer_bytes_[target] + answer > kPackBytes)) {
    send_pack(static_cast<int>(target));
  }
  // A packed put or accumulate has id 0: it is counted, not tracked (no request, no pending
  // entry); a packed get is tracked, for its result, but has no request either.
  const std::uint64_t id = kind == RmaKind::kGet ? next_op_++ : 0;
  if (id != 0) {
    PendingOp pending{static_cast<int>(target), result, {}, {}};
    if (result_landed != nullptr) pending.result_landed = std::move(*result_landed);
    pending_.emplace(id, std::move(pending));
  }
  const OperationWire wire{id,
                           next_sequence_[target]++,
                           kind,
                           op,
                           static_cast<std::uint32_t>(blocks.size() / 2),
                           disp,
                           result.size()};
  // One allocation for a typical epoch's pack (64 one-byte puts take 4.7 KiB), where growing
  // a record at a time reallocated about six times.
  constexpr std::size_t kFirstPackCapacity = 8 * 1024;
  if (pack.capacity() == 0) pack = take_spare_buffer();
  if (pack.capacity() == 0) pack.reserve(std::max(kFirstPackCapacity, record));
  const std::size_t at = pack.size();
  pack.resize(at + record);
  pack_answer_bytes_[target] += answer;
  std::byte* out = pack.data() + at;
  std::memcpy(out, lengths, sizeof lengths);
  out += sizeof lengths;
  std::memcpy(out, &wire, sizeof wire);
  out += sizeof wire;
  std::memcpy(out, blocks.data(), blocks.size_bytes());
  out += blocks.size_bytes();
  if (!payload.empty()) std::memcpy(out, payload.data(), payload.size());
  if (pack.size() >= kPackBytes || pack_answer_bytes_[target] >= kPackBytes) {
    send_pack(static_cast<int>(target));
  }
}

// Puts and gets on memory this rank maps, or by one CMA copy; false when neither applies.
bool Window::direct(RmaCall& call, std::span<const std::int64_t> blocks) {
  const bool put = call.kind == RmaKind::kPut;
  auto* local = put ? const_cast<std::byte*>(call.origin.data()) : call.result.data();
  if (std::byte* at = mapped_at(call.target, call.disp)) {
    std::size_t position = 0;
    for (std::size_t i = 0; i < blocks.size(); i += 2) {
      auto bytes = static_cast<std::size_t>(blocks[i + 1]);
      copy_direction(put, at + blocks[i], local + position, bytes);
      position += bytes;
    }
  } else {
    const WindowPeer& peer = peers_[static_cast<std::size_t>(call.target)];
    const std::uint64_t remote =
        flavor_ == WindowFlavor::kDynamic
            ? static_cast<std::uint64_t>(call.disp)
            : peer.base + static_cast<std::uint64_t>(call.disp * peer.disp_unit);
    if (!cma_to(call.target, local, remote, blocks, put)) return false;
  }
  if (!put && call.result_landed) call.result_landed();
  return true;
}

Request Window::start_contiguous(RmaKind kind, std::span<const std::byte> origin,
                                 std::span<std::byte> result, AccumulateCode op, int target,
                                 std::int64_t disp, bool may_pack) {
  check_target(target);
  if ((kind == RmaKind::kPut || kind == RmaKind::kGet) &&
      try_contiguous(kind, target, disp, 0,
                     kind == RmaKind::kPut ? const_cast<std::byte*>(origin.data()) : result.data(),
                     kind == RmaKind::kPut ? origin.size() : result.size(), may_pack)) {
    return {};
  }
  const OneBlock block(data_bytes(kind, op, origin, result));
  RmaCall call;
  call.kind = kind;
  call.target = target;
  call.disp = disp;
  call.target_blocks = block.pair;
  call.origin = origin;
  call.result = result;
  call.op = op;
  call.may_pack = may_pack;
  return start(std::move(call));
}

void Window::put(std::span<const std::byte> data, int target, std::int64_t disp) {
  EventLoop::Access access(*loop_);
  start_contiguous(RmaKind::kPut, data, {}, {}, target, disp, true);
}

void Window::get(std::span<std::byte> into, int target, std::int64_t disp) {
  EventLoop::Access access(*loop_);
  start_contiguous(RmaKind::kGet, {}, into, {}, target, disp, true);
}

void Window::accumulate(std::span<const std::byte> data, Datatype type, Op op, int target,
                        std::int64_t disp) {
  EventLoop::Access access(*loop_);
  check_op_supported(op, type);
  start_contiguous(RmaKind::kAccumulate, data, {}, runtime_accumulate_code(op, type), target, disp,
                   true);
}

void Window::get_accumulate(std::span<const std::byte> data, std::span<std::byte> into,
                            Datatype type, Op op, int target, std::int64_t disp) {
  EventLoop::Access access(*loop_);
  check_op_supported(op, type);
  start_contiguous(RmaKind::kGetAccumulate, data, into, runtime_accumulate_code(op, type), target,
                   disp, false);
}

void Window::fetch_and_op(const void* data, void* into, Datatype type, Op op, int target,
                          std::int64_t disp) {
  const std::size_t bytes = datatype_size(type);
  get_accumulate({static_cast<const std::byte*>(data), bytes},
                 {static_cast<std::byte*>(into), bytes}, type, op, target, disp);
}

void Window::compare_and_swap(const void* value, const void* compare, void* into, std::size_t bytes,
                              int target, std::int64_t disp) {
  EventLoop::Access access(*loop_);
  // The value and the comparand travel as one buffer of two elements.
  auto both = std::make_shared<std::vector<std::byte>>(2 * bytes);
  std::memcpy(both->data(), value, bytes);
  std::memcpy(both->data() + bytes, compare, bytes);
  const OneBlock block(bytes);
  RmaCall call;
  call.kind = RmaKind::kCompareAndSwap;
  call.target = target;
  call.disp = disp;
  call.target_blocks = block.pair;
  call.origin = *both;
  call.keep_alive = both;
  call.result = {static_cast<std::byte*>(into), bytes};
  start(std::move(call));
}

Request Window::rput(std::span<const std::byte> data, int target, std::int64_t disp) {
  EventLoop::Access access(*loop_);
  Request request = start_contiguous(RmaKind::kPut, data, {}, {}, target, disp, false);
  return request.valid() ? request : Request::make_completed(*loop_, Status{});
}

Request Window::rget(std::span<std::byte> into, int target, std::int64_t disp) {
  EventLoop::Access access(*loop_);
  Request request = start_contiguous(RmaKind::kGet, {}, into, {}, target, disp, false);
  return request.valid() ? request : Request::make_completed(*loop_, Status{});
}

void Window::accumulate_into(AccumulateCode op, std::byte* target, const std::byte* data,
                             std::size_t bytes) const {
  if (op.op == kNoOpCode || bytes == 0) return;
  if (op.op == kReplaceOpCode) {
    std::memmove(target, data, bytes);
    return;
  }
  accumulate_(op, target, data, bytes);
}

// A rendezvous operation dispatches when its payload has landed, so it may arrive after later
// eager ones of the same origin: operations are applied in the origin's order (MPI orders the
// accumulates of one origin to one target), later ones held until the earlier have come.
void Window::on_operation(int origin, const Arrived& arrived, std::span<const std::byte> payload) {
  auto o = static_cast<std::size_t>(origin);
  std::byte* landing = landing_address(arrived);
  const bool landed = landing != nullptr && payload.data() == landing;
  if (arrived.wire.sequence != expected_sequence_[o]) {
    HeldOperation held{{arrived.header.begin(), arrived.header.end()}, {}, landed};
    if (!landed) held.payload.assign(payload.begin(), payload.end());
    held_[o].emplace(arrived.wire.sequence, std::move(held));
    return;
  }
  apply_operation(origin, arrived, payload, landed);
  if (held_[o].empty()) {
    ++expected_sequence_[o];
    return;
  }
  for (auto it = held_[o].find(++expected_sequence_[o]); it != held_[o].end();
       it = held_[o].find(++expected_sequence_[o])) {
    HeldOperation next = std::move(it->second);
    held_[o].erase(it);
    apply_operation(origin, Arrived::of(next.header), next.payload, next.landed);
  }
}

Window::Arrived Window::Arrived::of(std::span<const std::byte> header) {
  Arrived arrived;
  arrived.header = header;
  // Every header a peer sends holds the head and at least one block: copies of fixed size.
  if (header.size() >= sizeof arrived.wire + sizeof arrived.first) [[likely]] {
    std::memcpy(&arrived.wire, header.data(), sizeof arrived.wire);
    std::memcpy(arrived.first, header.data() + sizeof arrived.wire, sizeof arrived.first);
  } else {
    arrived.wire = value_of<OperationWire>(header);
    arrived.first[0] = arrived.first[1] = 0;
  }
  return arrived;
}

// Where a put's payload lands directly (one block of the window, the size of the payload);
// null for every other operation.
std::byte* Window::landing_address(const Arrived& arrived) const {
  if (arrived.wire.kind != RmaKind::kPut || arrived.wire.blocks != 1) return nullptr;
  return local_address(arrived.wire.disp) + arrived.first[0];
}

void Window::apply_operation(int origin, const Arrived& arrived, std::span<const std::byte> payload,
                             bool landed) {
  const OperationWire& wire = arrived.wire;
  // The blocks: the first one decoded already (nearly every operation has one, so that a pack of
  // small puts allocates nothing per put), the others copied out of the header, which need not
  // be aligned.
  std::vector<std::int64_t> many_blocks;
  std::span<const std::int64_t> blocks(arrived.first);
  if (wire.blocks != 1) {
    many_blocks.resize(std::size_t{wire.blocks} * 2);
    const std::size_t in_header =
        arrived.header.size() > sizeof wire ? arrived.header.size() - sizeof wire : 0;
    std::memcpy(many_blocks.data(), arrived.header.data() + sizeof wire,
                std::min(in_header, many_blocks.size() * sizeof(std::int64_t)));
    blocks = many_blocks;
  }
  std::byte* at = local_address(wire.disp);
  if (wire.kind == RmaKind::kGet && wire.id != 0 && blocks.size() == 2) {
    const std::span<const std::byte> window_bytes{at + blocks[0],
                                                  static_cast<std::size_t>(blocks[1])};
    if (answer_in_pack(wire.id, window_bytes)) return;
    // A get of one block replies straight from the window, with no copy: MPI makes an access
    // that conflicts with it in the same epoch erroneous, and the origin ends its epoch only
    // once the reply has landed, so what the transport reads is what the get asked for.
    auto reply_header = std::make_shared<std::vector<std::byte>>(bytes_of_value(wire.id));
    comm_.am_send(origin, kReply, *reply_header, window_bytes,
                  [reply_header](const Status&) {});  // the header lives until sent
    return;
  }
  // A packed operation (id 0) fetches nothing and sends no reply of its own.
  auto reply = wire.id == 0 ? nullptr : std::make_shared<Outgoing>();
  if (reply != nullptr) {
    reply->header = bytes_of_value(wire.id);
    reply->owned_payload.resize(wire.fetch_bytes);
  }
  std::byte* fetched = reply != nullptr ? reply->owned_payload.data() : nullptr;
  const std::byte* data = payload.data();
  std::size_t position = 0;
  for (std::size_t i = 0; i < blocks.size(); i += 2) {
    std::byte* target = at + blocks[i];
    auto bytes = static_cast<std::size_t>(blocks[i + 1]);
    switch (wire.kind) {
      case RmaKind::kPut:
        if (!landed) copy_bytes(target, data + position, bytes);
        break;
      case RmaKind::kGet:
        std::memcpy(fetched + position, target, bytes);
        break;
      case RmaKind::kAccumulate:
        accumulate_into(wire.op, target, data + position, bytes);
        break;
      case RmaKind::kGetAccumulate:
        std::memcpy(fetched + position, target, bytes);
        accumulate_into(wire.op, target, data + position, bytes);
        break;
      case RmaKind::kCompareAndSwap:
        std::memcpy(fetched + position, target, bytes);
        if (std::memcmp(target, data + bytes, bytes) == 0) std::memcpy(target, data, bytes);
        break;
    }
    position += bytes;
  }
  if (reply == nullptr) {  // packed: counted with the rest of its pack, or alone when held
    if (pack_answer_ != nullptr) {
      ++pack_answer_->applied;
    } else {
      acknowledge_packed(origin, 1);
    }
    return;
  }
  if (answer_in_pack(wire.id, reply->owned_payload)) return;
  comm_.am_send(origin, kReply, reply->header, reply->owned_payload, [reply](const Status&) {});
}

void Window::complete_pending(std::uint64_t id, std::span<const std::byte> payload) {
  auto it = pending_.find(id);
  if (it == pending_.end()) return;
  PendingOp op = std::move(it->second);
  pending_.erase(it);
  if (!payload.empty() && payload.data() != op.result.data()) {
    std::memcpy(op.result.data(), payload.data(), std::min(payload.size(), op.result.size()));
  }
  if (op.result_landed) op.result_landed();
  --outstanding_[static_cast<std::size_t>(op.target)];
  if (op.request.valid()) op.request.complete(Status{});
}

void Window::flush(int target) {
  EventLoop::Access access(*loop_);
  count_epoch(target);
  const auto t = static_cast<std::size_t>(target);
  // Nothing in flight (every operation was a direct copy; a packed one is outstanding too):
  // no wait to set up.
  if (outstanding_[t] == 0 && remote_failure_.ok()) return;
  send_pack(target);
  run_until([this, target] { return outstanding_[static_cast<std::size_t>(target)] == 0; });
  report_remote_failure();
}

void Window::count_epoch(int target) {
  const auto t = static_cast<std::size_t>(target);
  ops_before_flush_[t] = ops_since_flush_[t];
  ops_since_flush_[t] = 0;
}

void Window::report_remote_failure() {
  if (remote_failure_.ok()) return;
  const Status failure = std::exchange(remote_failure_, Status{});
  // A transfer to a rank that died fails before hlaunch's notice of the death arrives (about
  // 0.1 s later): wait for it a little, so that the job is ended by the death it names.
  if (comm_.process_failure() == nullptr) {
    bool expired = false;
    const EventLoop::TimerId timer =
        loop_->add_timer(kPeerNoticeGrace, [&expired] { expired = true; });
    run_until([this, &expired] { return expired || comm_.process_failure() != nullptr; });
    loop_->cancel_timer(timer);
  }
  if (const Status* death = comm_.process_failure()) death->raise_if_failed();
  throw Error(failure.code, "a one-sided write or read across nodes failed: " + failure.message);
}

void Window::flush_all() {
  EventLoop::Access access(*loop_);
  for (int target = 0; target < size_; ++target) {
    count_epoch(target);
    send_pack(target);
  }
  run_until([this] {
    return std::all_of(outstanding_.begin(), outstanding_.end(), [](int n) { return n == 0; });
  });
  report_remote_failure();
}

void Window::sync() const {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

void Window::fence(bool open_next) {
  EventLoop::Access access(*loop_);
  flush_all();
  sync();
  barrier(comm_);
  sync();
  fence_epoch_ = open_next;
}

void Window::post(const std::vector<int>& ranks) {
  EventLoop::Access access(*loop_);
  if (!exposure_group_.empty())
    window_fault(WindowFault::kSync, "an exposure epoch is already open");
  exposure_group_ = ranks;
  sync();
  for (int origin : ranks) notify(origin, kPost, 0);
}

void Window::start_access(const std::vector<int>& ranks) {
  EventLoop::Access access(*loop_);
  if (!access_group_.empty()) window_fault(WindowFault::kSync, "an access epoch is already open");
  run_until([this, &ranks] {
    return std::all_of(ranks.begin(), ranks.end(),
                       [this](int t) { return posts_seen_[static_cast<std::size_t>(t)] > 0; });
  });
  for (int target : ranks) --posts_seen_[static_cast<std::size_t>(target)];
  access_group_ = ranks;
}

void Window::complete() {
  EventLoop::Access access(*loop_);
  for (int target : access_group_) flush(target);
  sync();
  for (int target : access_group_) notify(target, kComplete, 0);
  access_group_.clear();
}

void Window::wait() {
  EventLoop::Access access(*loop_);
  run_until([this] { return completes_seen_ >= static_cast<int>(exposure_group_.size()); });
  test();
}

bool Window::test() {
  EventLoop::Access access(*loop_);
  if (completes_seen_ < static_cast<int>(exposure_group_.size())) {
    loop_->poll();
    if (completes_seen_ < static_cast<int>(exposure_group_.size())) return false;
  }
  completes_seen_ -= static_cast<int>(exposure_group_.size());
  exposure_group_.clear();
  sync();
  return true;
}

void Window::lock(LockType type, int target) {
  EventLoop::Access access(*loop_);
  auto t = static_cast<std::size_t>(target);
  if (lock_type_[t] != 0 || lock_all_) {
    window_fault(WindowFault::kSync, "rank " + std::to_string(target) + " is already locked");
  }
  int seen = grants_[t];
  notify(target, kLock, static_cast<std::int32_t>(type));
  run_until([this, t, seen] { return grants_[t] > seen; });
  lock_type_[t] = static_cast<std::int32_t>(type);
}

void Window::unlock(int target) {
  EventLoop::Access access(*loop_);
  auto t = static_cast<std::size_t>(target);
  if (lock_type_[t] == 0) {
    window_fault(WindowFault::kSync, "rank " + std::to_string(target) + " is not locked");
  }
  flush(target);
  sync();
  int seen = grants_[t];
  notify(target, kUnlock, lock_type_[t]);
  run_until([this, t, seen] { return grants_[t] > seen; });
  lock_type_[t] = 0;
}

void Window::lock_all() {
  EventLoop::Access access(*loop_);
  if (lock_all_) window_fault(WindowFault::kSync, "lock_all: the window is already locked");
  notify_every_rank_and_wait(kLock);
  lock_all_ = true;
}

void Window::unlock_all() {
  EventLoop::Access access(*loop_);
  if (!lock_all_) window_fault(WindowFault::kSync, "unlock_all without lock_all");
  flush_all();
  sync();
  notify_every_rank_and_wait(kUnlock);
  lock_all_ = false;
}

// A shared lock or unlock message to every rank at once, then the wait for all their answers.
void Window::notify_every_rank_and_wait(int id) {
  std::vector<int> seen = grants_;
  for (int r = 0; r < size_; ++r) notify(r, id, static_cast<std::int32_t>(LockType::kShared));
  run_until([this, &seen] {
    for (std::size_t r = 0; r < seen.size(); ++r) {
      if (grants_[r] <= seen[r]) return false;
    }
    return true;
  });
}

void Window::on_lock(int origin, LockType type) {
  lock_queue_.push_back({origin, type});
  grant_waiting_locks();
}

void Window::on_unlock(int origin, LockType type) {
  if (type == LockType::kExclusive) {
    exclusive_held_ = false;
  } else {
    --shared_holders_;
  }
  sync();
  notify(origin, kGrant, 0);
  grant_waiting_locks();
}

// First come, first served: a waiting exclusive lock holds back the shared ones behind it.
void Window::grant_waiting_locks() {
  while (!lock_queue_.empty()) {
    LockWaiter next = lock_queue_.front();
    if (exclusive_held_) return;
    if (next.type == LockType::kExclusive) {
      if (shared_holders_ > 0) return;
      exclusive_held_ = true;
    } else {
      ++shared_holders_;
    }
    lock_queue_.pop_front();
    sync();
    notify(next.origin, kGrant, 0);
  }
}

void Window::free() {
  EventLoop::Access access(*loop_);
  flush_all();
  barrier(comm_);
  freed_ = true;
  unregister_handlers();
  exposed_.reset();  // after the barrier: no rank reaches this window any more
}

}  // namespace halyard
