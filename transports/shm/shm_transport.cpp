// Wiring, the send side and the progress loop of the shm transport. The receive side (rings
// polled, arrivals announced, rendezvous pulls) is in shm_receive.cpp.
#include "transports/shm/shm_transport.hpp"

#include <unistd.h>
#include <charconv>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/bootstrap/topology.hpp"
#include "runtime/support/copy_bytes.hpp"
#include "runtime/support/error.hpp"
#include "runtime/support/log.hpp"
#include "transports/shm/shm_transport_impl.hpp"

namespace halyard {

std::unique_ptr<Transport> make_shm_transport(const LaunchInfo& info, long host_cpus) {
  shm::ShmConfig config = shm::ShmConfig::from_environment();
  if (host_cpus > 0) config.host_cpus = host_cpus;
  return std::make_unique<shm::ShmTransport>(info, config);
}

void register_shm_transport(TransportRegistry& registry) {
  registry.add(TransportKind::kShm, [](const TransportSettings& settings) {
    return make_shm_transport(settings.info, settings.host_cpus);
  });
}

namespace shm {
namespace {

// Published by the node's first rank under its own rank: the bootstrap server lets a rank put
// only keys "NAME/RANK[/...]" of its own rank (docs/reliability.md).
std::string segment_key(int publisher, const LaunchInfo& info) {
  return "shm/" + std::to_string(publisher) + "/" + info.job_id + "/" +
         std::to_string(info.node_id);
}

// A rank's process id, under a key of its own: what the segment's locator and the pids that
// peers write into the segment are checked against.
std::string pid_key(int rank) {
  return "shm-pid/" + std::to_string(rank);
}

int pid_of(BootstrapClient& bootstrap, int rank) {
  const std::string text = bootstrap.get(pid_key(rank));
  int pid = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), pid);
  if (ec != std::errc() || end != text.data() + text.size() || pid <= 0) {
    throw Error(ErrorCode::kTransport,
                "shm: rank " + std::to_string(rank) + " published pid '" + text + "'");
  }
  return pid;
}

std::atomic_ref<std::uint32_t> sleeping_flag(ProcessBlock* block) {
  return std::atomic_ref<std::uint32_t>(block->sleeping);
}

}  // namespace

ShmTransport::ShmTransport(const LaunchInfo& info, const ShmConfig& config)
    : info_(info), config_(config), wake_(info.job_id, info.rank) {
  if (info.local_size < 1 || info.local_rank < 0 || info.local_rank >= info.local_size) {
    throw Error(ErrorCode::kInvalidArgument,
                "shm: local_rank " + std::to_string(info.local_rank) + " / local_size " +
                    std::to_string(info.local_size) + " is not a valid placement");
  }
  cma_enabled_ = config.single_copy != SingleCopyMode::kNone;
}

ShmTransport::~ShmTransport() {
  if (!outstanding_.empty() || !cma_pulls_.empty()) {
    log::debug("shm: transport destroyed with {} sends and {} pulls unfinished",
               outstanding_.size(), cma_pulls_.size());
  }
}

void ShmTransport::publish(BootstrapClient& bootstrap) {
  bootstrap.put(pid_key(info_.rank), std::to_string(::getpid()));
  if (info_.local_rank != 0) return;
  SegmentGeometry g;
  g.local_size = static_cast<std::uint32_t>(info_.local_size);
  g.cell_size = config_.cell_size;
  g.ring_cells = config_.ring_cells;
  g.staging_chunk = config_.staging_chunk;
  g.staging_slots = config_.staging_slots;
  SegmentLayout layout(g);
  segment_ = SharedSegment::create(
      "halyard-" + info_.job_id + "-node" + std::to_string(info_.node_id), layout.total_bytes());
  auto* header = reinterpret_cast<SegmentHeader*>(segment_.base());
  header->geometry = g;
  header->total_bytes = layout.total_bytes();
  header->version = kSegmentVersion;
  header->magic = kSegmentMagic;
  // The segment stays open here for the transport's life, so that a peer that connects late
  // (the in-process tests have no real barrier) can still open it through /proc.
  bootstrap.put(segment_key(info_.rank, info_), segment_.locator());
}

void ShmTransport::connect(BootstrapClient& bootstrap, const TopologyTable& topology) {
  if (info_.rank < 0 || info_.rank >= topology.size() ||
      topology[info_.rank].node_id != info_.node_id) {
    throw Error(ErrorCode::kInternal, "shm: the topology table does not place rank " +
                                          std::to_string(info_.rank) + " on node " +
                                          std::to_string(info_.node_id));
  }
  // Local index = order of the world rank among the ranks of this node.
  local_of_world_.assign(static_cast<std::size_t>(topology.size()), -1);
  std::vector<int> local_ranks;
  for (int r = 0; r < topology.size(); ++r) {
    if (topology[r].node_id != info_.node_id) continue;
    local_of_world_[static_cast<std::size_t>(r)] = static_cast<int>(local_ranks.size());
    local_ranks.push_back(r);
  }
  if (static_cast<int>(local_ranks.size()) != info_.local_size) {
    throw Error(ErrorCode::kInternal, "shm: the topology table has " +
                                          std::to_string(local_ranks.size()) + " ranks on node " +
                                          std::to_string(info_.node_id) + " but local_size is " +
                                          std::to_string(info_.local_size));
  }
  my_local_ = local_of_world_[static_cast<std::size_t>(info_.rank)];

  if (info_.local_rank != 0) {
    segment_ = SharedSegment::open(bootstrap.get(segment_key(local_ranks.front(), info_)),
                                   pid_of(bootstrap, local_ranks.front()));
  } else if (segment_.base() == nullptr) {
    throw Error(ErrorCode::kInternal, "shm: connect() before publish() on the node's first rank");
  }
  const auto* header = reinterpret_cast<const SegmentHeader*>(segment_.base());
  if (header->magic != kSegmentMagic || header->version != kSegmentVersion ||
      header->geometry.local_size != static_cast<std::uint32_t>(info_.local_size) ||
      header->total_bytes != segment_.size()) {
    throw Error(ErrorCode::kTransport, "shm: the node's segment is not a Halyard segment of " +
                                           std::to_string(info_.local_size) + " ranks");
  }
  layout_.emplace(header->geometry);
  const SegmentGeometry& g = header->geometry;
  // An eager message must fit in half a ring, so a full-size one can always make progress.
  eager_limit_ = config_.eager_limit;
  std::size_t ring_half_payload = std::size_t{g.ring_cells / 2} * g.cell_size - sizeof(CellHeader);
  if (eager_limit_ > ring_half_payload) {
    log::debug("shm: HALYARD_SHM_EAGER_LIMIT={} exceeds half a ring; using {}", eager_limit_,
               ring_half_payload);
    eager_limit_ = ring_half_payload;
  }

  peers_.clear();
  peers_.resize(local_ranks.size());
  share_allowed_ = config_.shares_copies(local_ranks.size(), config_.host_cpus);
  auto at = [&](std::size_t offset) { return segment_.base() + offset; };
  auto me = static_cast<std::uint32_t>(my_local_);
  for (std::uint32_t q = 0; q < peers_.size(); ++q) {
    Peer& p = peers_[q];
    p.world_rank = local_ranks[q];
    p.pid = pid_of(bootstrap, p.world_rank);
    p.block = reinterpret_cast<ProcessBlock*>(at(layout_->process_block(q)));
    p.out = SpscCellRing(at(layout_->ring(me, q)), g.ring_cells, g.cell_size);
    p.in = SpscCellRing(at(layout_->ring(q, me)), g.ring_cells, g.cell_size);
    p.staging_out = SpscCellRing(at(layout_->staging(me, q)), g.staging_slots, g.staging_chunk);
    p.staging_in = SpscCellRing(at(layout_->staging(q, me)), g.staging_slots, g.staging_chunk);
  }
  my_block_ = peers_[me].block;
  std::atomic_ref<std::int32_t>(my_block_->pid).store(::getpid(), std::memory_order_release);
  std::vector<ProcessBlock*> blocks;
  for (const Peer& p : peers_) blocks.push_back(p.block);
  node_memory_ =
      std::make_unique<ShmNodeMemory>(segment_.base(), *layout_, local_of_world_, my_local_,
                                      std::move(blocks), config_.single_copy, wake_);
  // Once every rank is past this point all of them have mapped the segment, so the creator may
  // end at any time without stranding a peer that had not opened it yet.
  bootstrap.barrier();
  log::debug("shm: rank {} is local {} of {} on node {}, eager limit {} B, single copy {}",
             info_.rank, my_local_, peers_.size(), info_.node_id, eager_limit_,
             config_.single_copy == SingleCopyMode::kNone ? "off" : "cma");
}

void ShmTransport::set_incoming_handler(IncomingHandler handler) {
  handler_ = std::move(handler);
}

ShmTransport::Peer& ShmTransport::peer_of_world(int world_rank, const char* what) {
  if (!layout_) throw Error(ErrorCode::kInvalidArgument, "shm: send() before connect()");
  if (world_rank < 0 || static_cast<std::size_t>(world_rank) >= local_of_world_.size() ||
      local_of_world_[static_cast<std::size_t>(world_rank)] < 0) {
    throw Error(ErrorCode::kInvalidArgument, std::string("shm: ") + what + " " +
                                                 std::to_string(world_rank) +
                                                 " is not a rank on this node");
  }
  return peers_[static_cast<std::size_t>(local_of_world_[static_cast<std::size_t>(world_rank)])];
}

void ShmTransport::check_buffer(const Envelope& env, const void* buf) {
  if (env.size > 0 && buf == nullptr) {
    throw Error(ErrorCode::kInvalidArgument,
                "shm: buf is null for a message of " + std::to_string(env.size) + " bytes");
  }
}

bool ShmTransport::send_now(int peer, const Envelope& env, const void* buf) {
  Peer& p = peer_of_world(peer, "peer");
  check_buffer(env, buf);
  // Behind a backlog a message waits its turn: order is per pair.
  if (env.size > eager_limit_ || !p.backlog.empty()) return false;
  CellHeader header{};
  header.kind = CellKind::kEager;
  header.envelope = env;
  if (!write_cell(p, header, buf, env.size)) return false;
  ++stats_.eager_sent;
  return true;
}

void ShmTransport::send(int peer, const Envelope& env, const void* buf, Completion done) {
  Peer& p = peer_of_world(peer, "peer");
  check_buffer(env, buf);
  int q = static_cast<int>(&p - peers_.data());
  OutboundCell cell;
  cell.header.envelope = env;
  if (env.size <= eager_limit_) {
    cell.header.kind = CellKind::kEager;
    cell.payload = buf;
    ++stats_.eager_sent;
    cell.done = std::move(done);
  } else {
    std::uint64_t id = next_id_++;
    outstanding_.emplace(id, Outstanding{q, static_cast<const std::byte*>(buf),
                                         static_cast<std::size_t>(env.size), std::move(done)});
    RendezvousRequest request{static_cast<std::int32_t>(::getpid()), 0,
                              reinterpret_cast<std::uintptr_t>(buf), id};
    cell.header.kind = CellKind::kRendezvousRequest;
    ++stats_.rendezvous_sent;
    std::memcpy(cell.control.data(), &request, sizeof request);
    cell.control_bytes = sizeof request;
  }
  enqueue(q, std::move(cell));
}

void ShmTransport::send_control(int peer_local, CellKind kind, const void* body,
                                std::size_t bytes) {
  OutboundCell cell;
  cell.header.kind = kind;
  std::memcpy(cell.control.data(), body, bytes);
  cell.control_bytes = bytes;
  enqueue(peer_local, std::move(cell));
}

void ShmTransport::enqueue(int peer_local, OutboundCell cell) {
  Peer& p = peers_[static_cast<std::size_t>(peer_local)];
  // Behind a backlog, a message waits its turn even if it would fit: order is per pair.
  if (p.backlog.empty() && try_write(p, cell)) return;
  p.backlog.push_back(std::move(cell));
  ++queued_backlog_;
  stats_.backlog_high_water = std::max(stats_.backlog_high_water, p.backlog.size());
}

void ShmTransport::populate_rings(Peer& peer) {
  peer.out.populate();
  peer.in.populate();
  peer.rings_populated = true;
}

bool ShmTransport::write_cell(Peer& peer, const CellHeader& header, const void* body,
                              std::size_t bytes) {
  if (!peer.rings_populated) [[unlikely]]
    populate_rings(peer);
  std::uint32_t cells = cells_for_payload(bytes, peer.out.cell_size());
  if (!peer.out.can_write(cells)) return false;
  std::uint64_t first = peer.out.write_position();
  // A header never wraps (a message starts at a cell; cells hold at least 128 bytes).
  std::memcpy(peer.out.cell(first) + kStampBytes,
              reinterpret_cast<const std::byte*>(&header) + kStampBytes,
              sizeof header - kStampBytes);
  if (bytes > 0) peer.out.write(first, sizeof(CellHeader), body, bytes);
  peer.out.publish_message(cells);
  poke(peer);
  return true;
}

bool ShmTransport::try_write(Peer& peer, OutboundCell& cell) {
  bool eager = cell.header.kind == CellKind::kEager;
  std::size_t bytes = eager ? cell.header.envelope.size : cell.control_bytes;
  if (!write_cell(peer, cell.header, eager ? cell.payload : cell.control.data(), bytes)) {
    return false;
  }
  if (cell.done) {
    Status ok;
    ok.bytes = bytes;
    defer(std::move(cell.done), std::move(ok));
  }
  return true;
}

void ShmTransport::poke(const Peer& peer) {
  if (peer.block == my_block_) return;
  // Pairs with the fence in prepare_to_block(): either the peer sees what we just published,
  // or we see its flag and wake it.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  wake_if_sleeping(peer);
}

void ShmTransport::wake_room_waiters() {
  if (owed_room_pokes_ == 0) return;
  // One fence for every ring the previous pass consumed from, paid at the start of the next
  // pass (or before sleeping): by then the stores that released the cells have left the store
  // buffer, so the fence costs little, whereas right after the release it stalled the receive
  // path for a whole cache-line transfer on every message, before the receive could complete.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  for (Peer& p : peers_) {
    if (!p.owes_room_poke) continue;
    p.owes_room_poke = false;
    wake_if_sleeping(p);
  }
  owed_room_pokes_ = 0;
}

void ShmTransport::wake_if_sleeping(const Peer& peer) {
  wake_.poke_if_sleeping(peer.block->sleeping, peer.world_rank);
}

void ShmTransport::defer(Completion done, Status status) {
  if (done) ready_.emplace_back(std::move(done), std::move(status));
}

int ShmTransport::flush_backlogs() {
  int events = 0;
  if (queued_backlog_ == 0) return 0;
  for (Peer& p : peers_) {
    while (!p.backlog.empty() && try_write(p, p.backlog.front())) {
      p.backlog.pop_front();
      --queued_backlog_;
      ++events;
    }
  }
  return events;
}

int ShmTransport::push_staged() {
  int events = 0;
  if (queued_pushes_ == 0) return 0;
  for (Peer& p : peers_) {
    bool published = false;
    while (!p.pushes.empty()) {
      StagedTransfer& t = p.pushes.front();
      auto it = outstanding_.find(t.id);
      const std::byte* src = it->second.buf;
      while (t.moved < t.bytes && p.staging_out.can_write(1)) {
        std::size_t n = std::min<std::size_t>(p.staging_out.cell_size(), t.bytes - t.moved);
        copy_bytes(p.staging_out.cell(p.staging_out.write_position()), src + t.moved, n);
        p.staging_out.publish(1);
        t.moved += n;
        published = true;
        ++events;
      }
      if (t.moved < t.bytes) break;
      // Everything is in the staging area: the sender's buffer is free.
      Status ok;
      ok.bytes = it->second.size;
      finish_outstanding(t.id, std::move(ok));
      p.pushes.pop_front();
      --queued_pushes_;
      ++events;
    }
    if (published) poke(p);
  }
  return events;
}

void ShmTransport::finish_outstanding(std::uint64_t id, Status status) {
  auto it = outstanding_.find(id);
  if (it == outstanding_.end()) {
    throw Error(ErrorCode::kInternal,
                "shm: completion for unknown rendezvous " + std::to_string(id));
  }
  defer(std::move(it->second.done), std::move(status));
  outstanding_.erase(it);
}

int ShmTransport::progress() {
  if (!layout_) return 0;
  if (armed_) {
    armed_ = false;
    sleeping_flag(my_block_).store(0, std::memory_order_relaxed);
    wake_.drain();
  }
  wake_room_waiters();
  // The idle pass is the latency floor of every receive: each step is called only when it has
  // something to do.
  int events = queued_backlog_ > 0 ? flush_backlogs() : 0;
  events += poll_rings();
  if (!cma_pulls_.empty()) events += advance_cma_pulls();
  if (!helps_.empty()) events += help_copies();
  if (queued_pulls_ > 0) events += pull_staged();
  if (queued_pushes_ > 0) events += push_staged();
  if (withdrawing_) events += end_sends_to_ended_peers();
  if (ready_.empty()) return events;
  // Completions queued so far run now; ones they cause wait for the next pass, so a callback
  // that sends again cannot keep this call busy forever.
  running_.swap(ready_);
  struct Clear {
    std::vector<std::pair<Completion, Status>>& v;
    ~Clear() { v.clear(); }  // also when a completion throws: none may run twice
  } clear{running_};
  for (auto& [done, status] : running_) {
    done(status);
    ++events;
  }
  return events;
}

bool ShmTransport::has_local_work() {
  if (!ready_.empty() || !cma_pulls_.empty() || !helps_.empty()) return true;
  for (Peer& p : peers_) {
    if (p.in.message_ready()) return true;
    // What waits on a peer counts only if it could move now; otherwise the peer pokes us once it
    // frees room or publishes.
    if (!p.backlog.empty()) {
      const OutboundCell& c = p.backlog.front();
      std::size_t bytes =
          c.header.kind == CellKind::kEager ? c.header.envelope.size : c.control_bytes;
      if (p.out.can_write(cells_for_payload(bytes, p.out.cell_size()))) return true;
    }
    if (!p.pushes.empty() && p.staging_out.can_write(1)) return true;
    if (!p.pulls.empty() && p.staging_in.readable_fresh() > 0) return true;
  }
  return false;
}

bool ShmTransport::prepare_to_block() {
  // Withdrawn sends wait for an answer or for the receiver's end, which wakes nobody.
  if (wake_.fd() < 0 || !layout_ || withdrawing_) return false;
  wake_room_waiters();
  sleeping_flag(my_block_).store(1, std::memory_order_relaxed);
  // Pairs with the fence in poke(): a peer that published before our flag was up is seen by
  // the checks below.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (has_local_work()) {
    sleeping_flag(my_block_).store(0, std::memory_order_relaxed);
    return false;
  }
  armed_ = true;
  return true;
}

}  // namespace shm
}  // namespace halyard
