// Channel: one single-node communicator's collective channel (docs/collectives.md, "The shm
// engine"; the design family of Open MPI's coll/xhc, MPICH's release_gather and UCC's tl/shm).
//
// The members synchronize through flags in the node's shared segment, never through p2p
// messages: a call is one or more chunks, each numbered by a seq (the channel's counter, the
// same on every member since all call the communicator's collectives in the same order), each
// published by its writers in their post line and cell of that seq's parity and read in place
// by its readers (channel_layout.hpp). Algorithms are flat, each reader reading every writer:
// the fewest hops, one cache-line transfer per flag, for the small nodes and messages the
// engine is chosen for.
//
// Calls advance in order, and a call takes its seqs when it begins (after the one before it
// finished: gatherv's and scatterv's non-roots learn their number from the root). start() runs a
// call as far as the peers' flags allow and returns a completed request when it finished; otherwise
// the call is queued and the runtime's ChannelProgress source (a source of the event loop like any
// transport, so blocking waits back off, yield and sleep as for every other wait) advances it on
// each pass. A call ends only in progress(): after it completes, no byte of its buffers is read or
// written. When the process fails (a peer died, the watchdog), queued calls complete with that
// failure and the channel takes no more calls.
#pragma once

#include <array>
#include <boost/container/small_vector.hpp>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "collectives/base/block_layout.hpp"
#include "collectives/core/coll_args.hpp"
#include "collectives/shm/channel_layout.hpp"
#include "runtime/communicator.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/node_memory.hpp"
#include "runtime/request.hpp"

namespace halyard::shm {

class ChannelProgress;
class ChannelTable;

// The layouts of a call's buffers where they are not contiguous (null: contiguous).
struct CallLayouts {
  std::optional<BufferLayout> send;
  std::optional<BufferLayout> recv;
};

class Channel final : public std::enable_shared_from_this<Channel>, public WaitDriver {
 public:
  Channel(const Communicator& comm, NodeMemory& memory, std::shared_ptr<ChannelTable> table,
          int index, std::uint64_t first_seq);
  ~Channel();
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  // Starts barrier, bcast, reduce, allreduce, allgather, gather, scatter, reduce_scatter(_block),
  // gatherv, scatterv or allgatherv on validated arguments (core/validate.hpp).
  Request start(const core::CollArgs& args);

  // Whether a call of `args` reads and writes its buffers through CollArgs' layouts: allreduce,
  // and reduce except by a single copy (where the other member reads this one's send buffer
  // with CMA, which needs contiguous bytes). Every member decides alike for the algorithm; each
  // may give layouts or not.
  bool takes_layouts(const core::CollArgs& args) const;

  // Advances the queued calls in order; returns how many chunks moved (0: nothing to do now).
  int progress();
  // A thread waits for the request of a queued call (a non-blocking call waited for, an MPI
  // persistent round): where it is the call under way, it runs here as a blocking call's would
  // (run_inline), and ends here if it ends.
  void drive(const Request& request) override;
  bool idle() const noexcept { return queue_.empty() && !unsettled_gatherv_; }
  // Wakes the members that sleep; the progress source calls it after a full fence for the
  // channels that published since its last pass (see NodeMemory::sleeping_flag).
  void wake_members();
  bool owes_wake = false;    // published since the progress source's last fence
  bool in_progress = false;  // on the progress source's list of active channels

 private:
  // Which member of a barrier leaves first or last (barrier_order.cpp, advance_barrier).
  struct BarrierOrder {
    enum class Kind : std::uint8_t {
      kFlat,      // each member leaves once it has seen every other's flag
      kFirstOut,  // `member` waits for the others' flags, then raises its own and leaves first
      kLastOut,   // each sees every flag, then the others raise a second and leave; `member`
                  // leaves once it has seen those
    };
    Kind kind = Kind::kFlat;
    int member = 0;
  };
  struct Call {
    core::Collective collective;
    const std::byte* send;  // this rank's contribution (its recv buffer for in-place)
    std::byte* recv;        // null at an in-place scatter(v) root (its block stays in send)
    Datatype type;
    Op op;
    int root;
    // What the call is chunked over: the vector (bcast, reduce, allreduce, reduce_scatter), a
    // block (gather, allgather), the largest block (the v-variants, where this rank knows them;
    // else its own), or a slot's worth of each block (scatter(v): chunk_bytes is the slot).
    std::size_t bytes;
    std::size_t chunk_bytes;      // a multiple of the datatype's size
    std::uint64_t first_seq = 0;  // set when the call begins (begin())
    std::uint64_t chunks;
    // Where the members' blocks lie (bytes) where they differ or follow no rank * bytes rule:
    // the v-variants where this rank knows the counts, reduce_scatter(_block)'s input.
    bool varied = false;
    base::BlockLayout blocks;
    // alltoallv (alltoallv_stream.cpp; `bytes` is its stream): where this rank's blocks for
    // the others lie in its send buffer (`blocks` is the receive side), and, per writer, where
    // this rank's block starts in the writer's stream (read at the first chunk).
    base::BlockLayout send_blocks;
    boost::container::small_vector<std::size_t, 8> stream_offsets;
    std::vector<std::byte> send_copy;  // in place over several chunks: what this rank sends
    // gatherv and scatterv off the root, which alone knows every count: the root's flag of the
    // call's first chunk carries the number of chunks (root_tells_chunks at the root).
    bool learns_chunks = false;
    bool root_tells_chunks = false;
    std::uint64_t chunk = 0;      // the chunk under way
    bool begun = false;           // it has its seqs (begin())
    bool published = false;       // this rank's part of that chunk is out
    bool sliced = false;          // allreduce by slices (see advance_sliced_allreduce)
    bool reduced = false;         // sliced: this rank's slice of the chunk is out
    bool published_next = false;  // sliced: its part of the next chunk is out already
    bool single_copy = false;     // bcast or reduce by a CMA read (see advance_single_copy)
    bool pairwise = false;        // alltoall in steps (see advance_pairwise_alltoall)
    BarrierOrder barrier;         // a barrier's order
    Status status;                // the call's outcome once it ended (a failed CMA read)
    // Allreduce on 2 members: slicing pays only for a result written through a layout (it
    // must be unpacked anyway, and each rank then reduces half), which one member may have and
    // the other not; each says at the first chunk whether it wants slices (its flag line's
    // first data byte, free when the part lies in the cell), and the call goes by slices from
    // there on if either does.
    bool agrees_on_slices = false;
    // Allreduce and reduce on buffers of a derived datatype (CollArgs' layouts, copied): parts
    // packed straight into the cells, reduced pieces written through the recv layout. Null
    // otherwise.
    std::unique_ptr<const CallLayouts> layouts;
    int next_peer = 0;  // peers before it have published the chunk
    Request request;    // null while start() runs
    Communicator comm;  // set when the call is queued (its process failure is watched)
  };

  // The single-chunk calls (single_chunk_calls.cpp): bcast, reduce, allreduce, allgather(v),
  // gather, scatter(v), reduce_scatter_block, alltoall and alltoallv (where this rank's stream
  // is at most kSingleChunkMaxBytes: alltoallv_stream.cpp) of at most kSingleChunkMaxBytes of
  // contiguous data per member (one seq; inline in the flag line up to kInlineBytes, in the cell
  // above), and the barrier of two members, when no call is before them. Small calls are most
  // calls: they run their steps straight from the arguments, without planning a Call, so a writer's
  // flag goes out after a few dozen instructions and a call that need not wait ends there. The
  // steps are the general algorithms' (flag_algorithms.cpp), in the same order; those take over a
  // call that must wait.
  static constexpr std::size_t kSingleChunkMaxBytes = 4 * 1024;
  enum class SingleChunk {
    kNotStarted,  // nothing done: the general path runs the call
    kPublished,   // this rank took the seq (next_seq_ - 1) and published its part; it waits
    kEnded,       // the call completed
  };
  bool fits_single_chunk(const core::CollArgs& args) const;
  // A member's slot of a scatter's payload in the root's cell (plan_blocks' chunk_bytes).
  std::size_t scatter_slot_bytes(const core::CollArgs& args) const;
  // The v-variants: the largest block of args.counts, member `except`'s left out (-1: none).
  std::size_t largest_block_bytes(const core::CollArgs& args, int except = -1) const;
  SingleChunk start_single_chunk(const core::CollArgs& args);

  // A blocking call (CollArgs::blocking) that did not finish at once runs here, without a
  // request or a queue entry, and so does a queued call under way that a thread waits for
  // (drive): a loop pass polls every source (some 250 instructions), this only the call's
  // flags, so it sees them several times sooner. Every kRoundsPerLoopPass rounds it runs a loop
  // pass (other operations, failure notices; queued calls wait meanwhile); it gives up where
  // the loop would stop busy-polling (EventLoop::busy_poll: at once where ranks share CPUs),
  // and the call stays as it stands, left to the loop (queued, if it was not). The call's
  // outcome once it ended; nullopt otherwise.
  std::optional<Status> run_inline(Call& call, const Communicator& comm);
  static constexpr unsigned kRoundsPerLoopPass = 256;
  // From this size on more than 2 ranks, allreduce goes by slices (docs/collectives.md).
  static constexpr std::size_t kSlicedAllreduceMinBytes = 8 * 1024;
  // With HALYARD_SHM_SINGLE_COPY=cma (NodeMemory::single_copy_requested), bcast and reduce on
  // two members, from kSingleCopyMinBytes to kSingleCopyMaxBytes, read the other member's buffer
  // with one CMA copy: a copy through the cells costs a transfer of every line the writer just
  // filled, a single copy reads a buffer that stays clean, but pays process_vm_readv's fixed
  // cost, which varies with the kernel and the VM (2.6 us on the 2-core VM on 2026-11-28, where
  // the cells then won at 16-256 KiB: docs/collectives.md, "Single copy"), so not by default.
  // A reduce's root copies the whole part in one read (a read per piece cost more than the
  // pieces' cache reuse saved) and lets the other member go before it reduces. Not on
  // more members (the root then waits for every reader, which oversubscribed ranks reach late,
  // and readers contend in the kernel); not above 256 KiB, where the cells' pipeline wins
  // (docs/collectives.md, "Single copy").
  static constexpr std::size_t kSingleCopyMinBytes = 16 * 1024;
  static constexpr std::size_t kSingleCopyMaxBytes = 256 * 1024;

  // The call's buffers, layout and chunking (call_plan.cpp).
  Call plan(const core::CollArgs& args) const;
  bool goes_by_single_copy(const core::CollArgs& args) const;
  bool goes_pairwise(const core::CollArgs& args) const;  // alltoall in steps
  static std::unique_ptr<const CallLayouts> copied_layouts(const core::CollArgs& args);
  void plan_blocks(Call& call, const core::CollArgs& args, std::size_t element) const;
  // The call takes the channel's next seqs; set_chunks() corrects their number once a
  // learns_chunks call learnt it (calls run one at a time, so no later call took any yet).
  void begin(Call& call);
  void set_chunks(Call& call, std::uint64_t chunks);
  // The chunk count the root's flag of `seq` carries (learns_chunks), and the root's side.
  std::uint64_t chunks_told(int root, std::uint64_t seq) const;
  void tell_chunks(std::byte* line_data, std::uint64_t chunks) const;

  // Runs `call` as far as the flags allow; true once it has finished.
  bool advance(Call& call);
  bool advance_barrier(Call& call);
  // Notes `args`, the channel's next call, and sets barrier_order_ when it is a barrier
  // (barrier_order.cpp).
  void learn_barrier_order(const core::CollArgs& args) noexcept;
  BarrierOrder default_barrier_order() const noexcept;
  bool advance_rooted(Call& call);
  bool advance_symmetric(Call& call);
  bool advance_sliced_allreduce(Call& call);
  bool advance_scatter(Call& call);
  bool advance_single_copy(Call& call);
  // A single-copy reduce's root: reads the other member's send buffer at `from`, finishes the
  // seq, reduces.
  void reduce_read(Call& call, int world_source, const std::byte* from);
  // The buffer address `rank` published inline with `seq` (single copy).
  std::uint64_t published_address(int rank, std::uint64_t seq) const;
  bool advance_own_blocks(Call& call);  // reduce_scatter(_block) and alltoall
  // Alltoall of large blocks: at step s (1 .. size - 1) each member writes its block for member
  // rank + s into its cell, read by that member alone, and reads the block of member rank - s,
  // a cell's worth per chunk. Every member copies one part in and one out per chunk, where
  // advance_own_blocks has every member publish its whole send vector and the owner of the
  // chunk's block copy out every member's part alone; and a chunk waits for two members, not
  // all of them.
  bool advance_pairwise_alltoall(Call& call);
  // alltoallv (alltoallv_stream.cpp): every member publishes a stream of its blocks, each reads
  // its own block out of every other member's.
  void plan_alltoallv(Call& call, const core::CollArgs& args, std::size_t element) const;
  bool advance_alltoallv(Call& call);
  void publish_stream_chunk(const Call& call, std::uint64_t seq);
  void read_stream_chunk(Call& call, std::uint64_t seq);
  std::byte* stream_outbox(std::uint64_t seq, int reader);
  int stream_reader(const Call& call, std::size_t begin, std::size_t end) const;
  const std::byte* stream_payload(int rank, std::uint64_t seq) const;
  std::size_t alltoallv_stream_bytes(const core::CollArgs& args) const;  // this rank's stream
  SingleChunk start_single_chunk_alltoallv(const core::CollArgs& args);
  // gatherv's root publishes the chunk count at the call's first chunk; false while it cannot.
  bool tell_gatherv_chunks(Call& call, std::uint64_t seq);
  // A gatherv's other member whose whole block went out in the first chunk ends its call there,
  // before the root's chunk count is up (it needs nothing from the root): the channel learns the
  // count before its next call starts, or from the progress source meanwhile, and only then
  // knows its next seq. True once no such gatherv is left (settled).
  struct UnsettledGatherv {
    std::uint64_t seq;  // its first chunk's
    int root;
  };
  bool settle_gatherv();
  // Ends such a member's gatherv of first seq `seq`, to be settled by the next call on the
  // channel or by the progress source, whichever comes first. The caller has kept the channel
  // for that (keep_for_settling) before it published the member's block.
  void leave_gatherv(std::uint64_t seq, int root);
  // Puts this channel on the progress source's list (it advances active channels until they
  // are idle, and keeps them while a gatherv is unsettled, even past their communicator).
  // Called before the publish: joining the list takes a reference, an atomic add, which would
  // wait there for the flag's store to reach the other cores (ChannelProgress::activate).
  void keep_for_settling();

  std::uint64_t seq_of(const Call& call) const { return call.first_seq + call.chunk; }
  std::size_t offset_of(const Call& call) const { return call.chunk * call.chunk_bytes; }
  // The current chunk's part of `bytes` chunked from the start (0 past their end).
  std::size_t chunk_part(const Call& call, std::size_t bytes) const;
  std::size_t length_of(const Call& call) const { return chunk_part(call, call.bytes); }
  // Member `rank`'s block in the buffer of one block per rank, and its part of the current chunk.
  std::size_t block_bytes(const Call& call, int rank) const;
  std::size_t block_offset(const Call& call, int rank) const;
  std::size_t block_length(const Call& call, int rank) const;

  // Whether `rank` has published call `seq` (and, learnt on the way, finished seq - 1).
  bool posted(int rank, std::uint64_t seq);
  // Whether every member but this rank (and `except`) has published `seq`, resuming the scan at
  // `next_peer` (the members before it have), which it moves past those found posted.
  bool all_posted_from(int& next_peer, std::uint64_t seq, int except = -1);
  // The same for a Call, resuming at call.next_peer.
  bool all_posted(Call& call, std::uint64_t seq, int except = -1) {
    return all_posted_from(call.next_peer, seq, except);
  }
  // The same for the members r with needed(r) only (resuming at call.next_peer): a gatherv's
  // root waits for those with data in the chunk, an alltoallv reader past the first chunk for
  // those whose chunk holds a part of its block.
  template <class Needed>
  bool all_needed_posted(Call& call, std::uint64_t seq, Needed needed) {
    for (; call.next_peer < size_; ++call.next_peer) {
      if (call.next_peer == rank_ || !needed(call.next_peer)) continue;
      if (!posted(call.next_peer, seq)) return false;
    }
    return true;
  }
  // Whether this rank may overwrite its payload of `seq`'s parity: the readers of what it last
  // published there have finished that chunk.
  bool reusable(std::uint64_t seq);
  // Whether `reader` (every other member when kAllReaders) has finished `seq`: its done flag.
  bool finished(std::uint64_t seq, int reader);
  // Allgather and allreduce: publishes this rank's part of the current chunk `seq` for every
  // member, once; false while its parity is still being read (reusable()).
  bool publish_part(Call& call, std::uint64_t seq, std::size_t length);
  // Publishes bytes [offset, offset + length) of call.send for `reader`: copied, or packed
  // straight into the outbox from a send layout (packing out of line: a contiguous call pays one
  // test).
  void publish_send(const Call& call, std::uint64_t seq, std::size_t offset, std::size_t length,
                    int reader) {
    if (call.layouts && call.layouts->send) [[unlikely]] {
      publish_packed(call, seq, offset, length, reader);
    } else {
      publish(seq, call.send + offset, length, reader);
    }
  }
  void publish_packed(const Call& call, std::uint64_t seq, std::size_t offset, std::size_t length,
                      int reader);
  // This rank's own part of the current chunk: call.send itself, or packed from a send layout
  // into scratch.
  const std::byte* own_part(const Call& call, std::size_t offset, std::size_t length) {
    if (call.layouts && call.layouts->send) [[unlikely]] {
      return packed_own_part(call, offset, length);
    }
    return call.send + offset;
  }
  const std::byte* packed_own_part(const Call& call, std::size_t offset, std::size_t length);
  // Publishes `bytes` of `data` as this rank's part of `seq`, to be read by `reader` (every
  // member when kAllReaders), and wakes sleeping members. `bytes` 0 publishes the flag alone,
  // which no reader's copy depends on.
  static constexpr int kAllReaders = -1;
  void publish(std::uint64_t seq, const std::byte* data, std::size_t bytes, int reader) {
    place(seq, data, bytes, reader);
    announce();
  }
  // publish() without the wake, for a writer that finishes the call at once (its finish()
  // wakes the members once for both flags).
  void place(std::uint64_t seq, const std::byte* data, std::size_t bytes, int reader);
  // publish() in two steps, for a payload assembled in place (scatter): where this rank's
  // `bytes` of `seq` go (its flag line or its cell), then the flag.
  std::byte* outbox(std::uint64_t seq, std::size_t bytes, int reader);
  void post(std::uint64_t seq);
  // Where `rank`'s part of `seq` lies (in its flag line or its cell).
  const std::byte* payload(int rank, std::uint64_t seq, std::size_t bytes) const;
  // This rank finished `seq`: its done flag says so (writers wait on it to reuse a parity).
  void finish(std::uint64_t seq);
  // finish() for the call's current chunk, and the call moves on to the next.
  void finish_chunk(Call& call);
  // Copies the members' parts of the current chunk to their blocks of call.recv (this rank's
  // from call.send, unless it already lies there): gather(v) and allgather(v).
  void place_blocks(Call& call);
  // Reduces the members' parts of the current chunk, in rank order, into call.recv (through
  // its layout where it has one: in place in long blocks, else through a piece of scratch).
  void reduce_chunk(Call& call, const std::byte* own);
  void reduce_chunk_laid_out(const Call& call, const std::byte* own, std::size_t length);
  // Copies `bytes` of a result to bytes [offset, offset + bytes) of call.recv, or unpacks them
  // there.
  void place_result(const Call& call, std::size_t offset, const std::byte* result,
                    std::size_t bytes) const;
  // Reduces bytes [from, from + length) of the members' parts of `seq` (this rank's is `own`),
  // in rank order, into `out`.
  void reduce_parts(Op op, Datatype type, std::uint64_t seq, std::size_t chunk_length,
                    std::size_t from, std::size_t length, const std::byte* own, std::byte* out);
  // Sliced allreduce: where `rank`'s slice of the current chunk starts and how long it is.
  std::pair<std::size_t, std::size_t> slice_of(const Call& call, int rank) const;
  // Where `rank` leaves its reduced slice of `seq`, which starts at `from`: over its own part of
  // that slice in its cell (no one else reads it), or at the same place in the unused cell
  // where the part rode inline.
  std::byte* slice_result(int rank, std::uint64_t seq, std::size_t from) const;
  // Allreduce on 2 members: says at the call's first chunk whether this rank wants slices, and
  // after both published it, whether either does (Call::agrees_on_slices).
  void say_whether_sliced(const Call& call, std::uint64_t seq);
  bool either_wants_slices(std::uint64_t seq) const;
  // Whether every member but this rank has published its reduced slice of `seq`.
  bool all_reduced(Call& call, std::uint64_t seq);
  // Sliced allreduce: while this rank waits for the others' slices of a chunk, it publishes its
  // part of the next chunk (packing a part from a send layout is a third of such a call's work).
  void publish_next_part(Call& call);
  // Wakes the sleeping members after a flag store, and owes the progress source a check
  // after its next fence.
  void announce();

  // Not the communicator: the channel is attached to it, so holding it would keep it alive for
  // ever. A queued call holds it (Call::comm) while it waits.
  EventLoop& loop_;
  NodeMemory& memory_;
  std::shared_ptr<ChannelTable> table_;
  std::weak_ptr<ChannelProgress> progress_source_;  // the runtime's: it may go before us
  ChannelProgress* progress_;  // the same, for calls (the runtime lives while they run)
  int index_;
  int rank_;
  int size_;
  // The other members, as a publish wakes them: each one's sleeping flag and world rank.
  struct Member {
    const std::uint32_t* sleeping;
    int world_rank;
  };
  std::vector<Member> others_;
  std::vector<int> world_ranks_;         // per member
  std::vector<ChannelHeader*> headers_;  // per member, at this process's address
  std::vector<std::byte*> cells_;        // per member: its two parity cells
  std::size_t cell_bytes_;
  std::uint64_t next_seq_;
  // The order of the barrier being started, and what it is learnt from: the kind of the last
  // call, the kind of the call before the last barrier while that barrier was the last call
  // (empty otherwise), and per kind of call, the call that followed the last barrier after such
  // a call.
  BarrierOrder barrier_order_;
  struct FollowingCall {
    bool seen = false;
    core::Collective collective = core::Collective::kBarrier;
    int root = 0;
  };
  core::Collective last_call_ = core::Collective::kBarrier;
  std::optional<core::Collective> before_last_barrier_;
  std::array<FollowingCall, core::kCollectiveCount> after_barrier_following_{};
  std::vector<std::uint64_t> known_done_;  // per member: a lower bound of its done flag
  // Per parity: the seq of this rank's last payload there (0: none yet) and who reads it.
  std::uint64_t payload_seq_[2] = {0, 0};
  int payload_reader_[2] = {kAllReaders, kAllReaders};
  std::deque<Call> queue_;
  std::optional<UnsettledGatherv> unsettled_gatherv_;  // see settle_gatherv()
  const Call* inline_call_ = nullptr;                  // the call run_inline() runs, if any
  std::vector<std::byte> scratch_;        // an in-place root's own chunk while it reduces into recv
  std::vector<std::byte> reduced_chunk_;  // a piece of result on its way to a recv layout
  std::vector<std::byte> own_chunk_;      // a reduce root's own chunk packed from a send layout
  std::vector<std::byte> staged_part_;    // a part packed from a send layout, bound for the cell
  static constexpr std::size_t kReducedPieceBytes = 8 * 1024;
  static constexpr std::size_t kInPlaceBlockBytes = 1024;  // a recv block reduced into in place
  const Status* failure_ = nullptr;  // the process failure that stopped the channel
};

}  // namespace halyard::shm
