#include "collectives/shm/channel.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <utility>

#include "collectives/shm/channel_progress.hpp"
#include "collectives/shm/channel_table.hpp"
#include "runtime/datatypes/reduction.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/support/copy_bytes.hpp"
#include "runtime/support/error.hpp"

namespace halyard::shm {

namespace {

// A member's sleeping flag, which its own process writes (atomic_ref needs a non-const object;
// this only loads).
std::uint32_t load_word(const std::uint32_t& word) {
  return std::atomic_ref<std::uint32_t>(const_cast<std::uint32_t&>(word))
      .load(std::memory_order_relaxed);
}

}  // namespace

Channel::Channel(const Communicator& comm, NodeMemory& memory, std::shared_ptr<ChannelTable> table,
                 int index, std::uint64_t first_seq)
    : loop_(comm.loop()),
      memory_(memory),
      table_(std::move(table)),
      progress_source_(ChannelProgress::of(comm)),
      progress_(progress_source_.lock().get()),
      index_(index),
      rank_(comm.rank()),
      size_(comm.size()),
      next_seq_(first_seq),
      known_done_(static_cast<std::size_t>(comm.size()), first_seq - 1) {
  for (int r = 0; r < size_; ++r) {
    const int world = comm.world_rank(r);
    std::span<std::byte> region = memory.channel_region(world);
    const ChannelGeometry g = ChannelGeometry::of_region(region.size());
    std::byte* channel = region.data() + static_cast<std::size_t>(index) * g.channel_bytes;
    world_ranks_.push_back(world);
    if (r != rank_) others_.push_back({memory.sleeping_flag(world), world});
    headers_.push_back(reinterpret_cast<ChannelHeader*>(channel));
    cells_.push_back(channel + kHeaderBytes);
    cell_bytes_ = g.cell_bytes;
  }
}

Channel::~Channel() {
  if (owes_wake) {
    if (auto source = progress_source_.lock()) source->forget(this);
  }
  // Only bookkeeping: the runtime (and its segment) may be gone already.
  std::vector<const ChannelHeader*> members;
  for (int r = 0; r < size_; ++r) {
    if (r != rank_) members.push_back(headers_[static_cast<std::size_t>(r)]);
  }
  table_->release(index_, next_seq_ - 1, std::move(members));
}

Request Channel::start(const core::CollArgs& args) {
  if (failure_ != nullptr) return Request::make_completed(loop_, *failure_);
  learn_barrier_order(args);
  // Calls run in order: this one starts now only when none is before it (and the channel knows
  // its next seq).
  const bool first = queue_.empty() && inline_call_ == nullptr && settle_gatherv();
  SingleChunk single_chunk = SingleChunk::kNotStarted;
  if (first && fits_single_chunk(args)) {
    single_chunk = start_single_chunk(args);
    // A blocking caller only waits on it: a null request is a completed one, without the cost
    // of one.
    if (single_chunk == SingleChunk::kEnded) {
      return args.null_when_ended() ? Request() : Request::make_completed(loop_, Status());
    }
  }
  Call call = plan(args);
  if (first) {
    if (single_chunk == SingleChunk::kPublished) {
      call.begun = true;
      call.first_seq = next_seq_ - 1;
      call.published = true;
    } else {
      begin(call);
    }
    if (advance(call)) {
      const bool ok = call.status.ok();
      return args.null_when_ended() && ok ? Request() : Request::make_completed(loop_, call.status);
    }
    if (args.blocking) {
      if (const std::optional<Status> ended = run_inline(call, args.comm)) {
        return ended->ok() ? Request() : Request::make_completed(loop_, *ended);
      }
    }
  }
  call.request = Request::make_pending_drained(loop_, *this);
  call.comm = args.comm;
  Request request = call.request;
  // A call that began runs before any queued while it ran inline.
  if (call.begun) {
    queue_.push_front(std::move(call));
  } else {
    queue_.push_back(std::move(call));
  }
  progress_->activate(*this);
  return request;
}

std::optional<Status> Channel::run_inline(Call& call, const Communicator& comm) {
  if (loop_.threaded() || loop_.in_pass()) return std::nullopt;
  std::chrono::microseconds budget{0};
  if (loop_.policy() == WaitPolicy::kSpin) budget = std::chrono::hours(1);
  if (loop_.policy() == WaitPolicy::kBlock) budget = loop_.busy_poll();
  // No budget where ranks share CPUs: the loop's back-off lets the others run.
  if (budget.count() == 0) return std::nullopt;
  // Calls that a loop pass starts meanwhile (from a callback) queue behind this one.
  inline_call_ = &call;
  struct Clear {
    const Call*& slot;
    ~Clear() { slot = nullptr; }
  } clear{inline_call_};
  EventLoop::Clock::time_point deadline{};
  for (unsigned round = 1;; ++round) {
    if (advance(call)) return call.status;
    if (round % kRoundsPerLoopPass != 0) continue;
    // Now and then: the loop's other work, failure notices, and the busy-poll budget (the clock
    // is read only for a call that did not end within the first rounds).
    loop_.poll();
    if ((failure_ = comm.process_failure()) != nullptr) return *failure_;
    const auto now = EventLoop::Clock::now();
    if (round == kRoundsPerLoopPass) deadline = now + budget;
    if (now > deadline) return std::nullopt;
  }
}

void Channel::drive(const Request& request) {
  // Where several threads may run the loop, the queue is theirs too: only the loop touches it.
  if (loop_.threaded()) return;
  // A call behind others cannot move before they end: the loop runs them.
  if (queue_.empty() || failure_ != nullptr || !queue_.front().request.same_as(request)) return;
  if (!settle_gatherv()) return;
  Call& call = queue_.front();
  if (!call.begun) begin(call);
  const std::optional<Status> ended = run_inline(call, call.comm);
  if (!ended) return;
  call.request.complete(*ended);
  queue_.pop_front();
}

int Channel::progress() {
  int events = 0;
  if (!settle_gatherv()) {
    // The queued calls wait for the root's count; a process failure ends them.
    if (queue_.empty() || failure_ != nullptr) return 0;
    if ((failure_ = queue_.front().comm.process_failure()) == nullptr) return 0;
    for (Call& queued : queue_) queued.request.complete(*failure_);
    events = static_cast<int>(queue_.size());
    queue_.clear();
    return events;
  }
  while (!queue_.empty() && inline_call_ == nullptr) {
    Call& call = queue_.front();
    // A gatherv that just ended early may leave the next seq unknown (settle_gatherv).
    if (!call.begun && !settle_gatherv()) break;
    if (!call.begun) begin(call);
    const std::uint64_t before = call.chunk;
    const bool finished = failure_ == nullptr && advance(call);
    events += static_cast<int>(call.chunk - before);
    if (!finished) {
      // Waiting on a member: a process failure (a member died, the watchdog) ends every queued
      // call, since the flags it waits for may never come.
      if (failure_ == nullptr) failure_ = call.comm.process_failure();
      if (failure_ == nullptr) break;
      for (Call& queued : queue_) queued.request.complete(*failure_);
      events += static_cast<int>(queue_.size());
      queue_.clear();
      break;
    }
    call.request.complete(call.status);
    queue_.pop_front();
    ++events;
  }
  return events;
}

std::size_t Channel::chunk_part(const Call& call, std::size_t bytes) const {
  const std::size_t offset = offset_of(call);
  return offset < bytes ? std::min(call.chunk_bytes, bytes - offset) : 0;
}

bool Channel::posted(int rank, std::uint64_t seq) {
  const std::uint64_t seen = load_seq(headers_[static_cast<std::size_t>(rank)]->post[seq & 1]);
  if (seen < seq) return false;
  // A member publishes a call only after it finished the previous one.
  std::uint64_t& done = known_done_[static_cast<std::size_t>(rank)];
  done = std::max(done, seen - 1);
  return true;
}

bool Channel::all_posted_from(int& next_peer, std::uint64_t seq, int except) {
  for (; next_peer < size_; ++next_peer) {
    if (next_peer == rank_ || next_peer == except) continue;
    if (!posted(next_peer, seq)) return false;
  }
  return true;
}

bool Channel::reusable(std::uint64_t seq) {
  const std::uint64_t needed = payload_seq_[seq & 1];
  return needed == 0 || finished(needed, payload_reader_[seq & 1]);
}

bool Channel::finished(std::uint64_t seq, int reader) {
  for (int r = 0; r < size_; ++r) {
    if (r == rank_ || (reader != kAllReaders && r != reader)) continue;
    std::uint64_t& done = known_done_[static_cast<std::size_t>(r)];
    if (done >= seq) continue;
    done = std::max(done, load_seq(headers_[static_cast<std::size_t>(r)]->done));
    if (done < seq) return false;
  }
  return true;
}

std::uint64_t Channel::published_address(int rank, std::uint64_t seq) const {
  std::uint64_t address = 0;
  std::memcpy(&address, payload(rank, seq, sizeof address), sizeof address);
  return address;
}

std::byte* Channel::outbox(std::uint64_t seq, std::size_t bytes, int reader) {
  if (bytes > 0) {
    payload_seq_[seq & 1] = seq;
    payload_reader_[seq & 1] = reader;
  }
  if (bytes <= kInlineBytes) return headers_[static_cast<std::size_t>(rank_)]->post[seq & 1].data;
  return cells_[static_cast<std::size_t>(rank_)] + (seq & 1) * cell_bytes_;
}

void Channel::post(std::uint64_t seq) {
  store_seq(headers_[static_cast<std::size_t>(rank_)]->post[seq & 1], seq);
  announce();
}

void Channel::place(std::uint64_t seq, const std::byte* data, std::size_t bytes, int reader) {
  std::byte* to = outbox(seq, bytes, reader);
  if (bytes > 0) copy_bytes(to, data, bytes);
  store_seq(headers_[static_cast<std::size_t>(rank_)]->post[seq & 1], seq);
}

const std::byte* Channel::payload(int rank, std::uint64_t seq, std::size_t bytes) const {
  const auto r = static_cast<std::size_t>(rank);
  if (bytes <= kInlineBytes) return headers_[r]->post[seq & 1].data;
  return cells_[r] + (seq & 1) * cell_bytes_;
}

void Channel::finish(std::uint64_t seq) {
  store_seq(headers_[static_cast<std::size_t>(rank_)]->done, seq);
  // A writer may wait for this to reuse a parity (a bcast root, reduce's non-roots).
  announce();
}

void Channel::finish_chunk(Call& call) {
  finish(seq_of(call));
  ++call.chunk;
  call.published = call.published_next;
  call.published_next = false;
  call.reduced = false;
  call.next_peer = 0;
}

void Channel::place_blocks(Call& call) {
  const std::uint64_t seq = seq_of(call);
  const std::size_t offset = offset_of(call);
  for (int r = 0; r < size_; ++r) {
    const std::size_t length = block_length(call, r);
    if (length == 0) continue;
    std::byte* to = call.recv + block_offset(call, r) + offset;
    const std::byte* from = r == rank_ ? call.send + offset : payload(r, seq, length);
    if (from != to) copy_bytes(to, from, length);
  }
}

void Channel::reduce_chunk(Call& call, const std::byte* own) {
  const std::size_t length = length_of(call);
  if (call.layouts && call.layouts->recv) [[unlikely]] {
    reduce_chunk_laid_out(call, own, length);
    return;
  }
  reduce_parts(call.op, call.type, seq_of(call), length, 0, length, own,
               call.recv + offset_of(call));
}

void Channel::reduce_chunk_laid_out(const Call& call, const std::byte* own, std::size_t length) {
  // Long blocks of recv are reduced into in place; short ones piece by piece into a buffer that
  // stays in the first-level cache, each piece unpacked at once. No staging of the whole vector
  // either way.
  const BufferLayout& recv = *call.layouts->recv;
  const std::size_t element = datatype_size(call.type);
  const std::size_t piece = std::max<std::size_t>(1, kReducedPieceBytes / element) * element;
  reduced_chunk_.resize(piece);
  for (std::size_t from = 0; from < length;) {
    const BufferLayout::Span span = recv.span_at(offset_of(call) + from);
    std::size_t n = std::min(span.bytes, length - from) / element * element;
    if (n >= kInPlaceBlockBytes) {
      reduce_parts(call.op, call.type, seq_of(call), length, from, n, own, span.at);
    } else {
      n = std::min(piece, length - from);
      reduce_parts(call.op, call.type, seq_of(call), length, from, n, own, reduced_chunk_.data());
      recv.unpack(offset_of(call) + from, n, reduced_chunk_.data());
    }
    from += n;
  }
}

void Channel::place_result(const Call& call, std::size_t offset, const std::byte* result,
                           std::size_t bytes) const {
  if (call.layouts && call.layouts->recv) {
    call.layouts->recv->unpack(offset, bytes, result);
  } else {
    copy_bytes(call.recv + offset, result, bytes);
  }
}

void Channel::reduce_parts(Op op, Datatype type, std::uint64_t seq, std::size_t chunk_length,
                           std::size_t from, std::size_t length, const std::byte* own,
                           std::byte* out) {
  const std::size_t count = length / datatype_size(type);
  if (count == 0) return;
  own += from;
  auto part = [&](int r) { return r == rank_ ? own : payload(r, seq, chunk_length) + from; };
  if (own == out && rank_ != 0) {
    // In place at a rank other than 0: its part is overwritten by rank 0's before its turn.
    scratch_.assign(own, own + length);
    own = scratch_.data();
  }
  if (size_ == 1) {
    if (out != own) copy_bytes(out, own, length);
    return;
  }
  // Validated with the call (op on type; recv identical to or apart from the inputs; the
  // members' parts lie in their own cells).
  reduce_validated(op, type, out, part(0), part(1), count);
  for (int r = 2; r < size_; ++r) reduce_validated(op, type, out, out, part(r), count);
}

std::pair<std::size_t, std::size_t> Channel::slice_of(const Call& call, int rank) const {
  const std::size_t element = datatype_size(call.type);
  const std::size_t elements = length_of(call) / element;
  const std::size_t per_rank =
      (elements + static_cast<std::size_t>(size_) - 1) / static_cast<std::size_t>(size_);
  const std::size_t first = std::min(elements, per_rank * static_cast<std::size_t>(rank));
  const std::size_t last = std::min(elements, first + per_rank);
  return {first * element, (last - first) * element};
}

std::byte* Channel::slice_result(int rank, std::uint64_t seq, std::size_t from) const {
  return cells_[static_cast<std::size_t>(rank)] + (seq & 1) * cell_bytes_ + from;
}
void Channel::say_whether_sliced(const Call& call, std::uint64_t seq) {
  const bool wants = call.layouts && call.layouts->recv;
  headers_[static_cast<std::size_t>(rank_)]->post[seq & 1].data[0] = std::byte{wants};
}
bool Channel::either_wants_slices(std::uint64_t seq) const {
  for (const ChannelHeader* header : headers_) {
    if (header->post[seq & 1].data[0] != std::byte{0}) return true;
  }
  return false;
}

bool Channel::all_reduced(Call& call, std::uint64_t seq) {
  for (; call.next_peer < size_; ++call.next_peer) {
    if (call.next_peer == rank_) continue;
    const auto m = static_cast<std::size_t>(call.next_peer);
    if (load_seq(headers_[m]->result[seq & 1]) < seq) return false;
  }
  return true;
}

void Channel::wake_members() {
  for (const Member& member : others_) {
    if (load_word(*member.sleeping) != 0) memory_.wake(member.world_rank);
  }
}

void Channel::announce() {
  wake_members();
  // Without a fence since the flag store, a member that just went to sleep may be missed: the
  // progress source checks again after its fence.
  if (!owes_wake) progress_->owe_wake(this);
}

}  // namespace halyard::shm
