#include "collectives/intranode/cma_slice_reduce.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "collectives/base/block_partition.hpp"
#include "collectives/intranode/cma_pull.hpp"
#include "runtime/datatypes/reduction.hpp"
#include "runtime/support/scratch_pool.hpp"

namespace halyard::intranode {

namespace {

constexpr std::size_t kReduceChunkBytes = 64 * 1024;

class CmaSliceReduce final : public NoticeMachine {
 public:
  CmaSliceReduce(const Communicator& comm, NodeMemory& memory, SliceReducePlan plan,
                 SliceReduceTags tags)
      : NoticeMachine(comm, memory),
        plan_(plan),
        tags_(tags),
        element_(datatype_size(plan.type)),
        slices_(plan.count, static_cast<std::size_t>(comm.size())),
        peers_(static_cast<std::size_t>(comm.size())) {
    auto me = static_cast<std::size_t>(rank());
    my_offset_ = slices_.offset(me) * element_;
    my_bytes_ = slices_.length(me) * element_;
    // Reduce in cache-sized pieces: buffers this small come from the heap's free lists (no
    // fresh pages to fault in per call) and stay in cache between the read and the reduction.
    chunk_ = std::max<std::size_t>(1, kReduceChunkBytes / element_) * element_;
    if (copies_out()) {
      result_ = static_cast<std::byte*>(plan_.recv) + my_offset_;
    } else {
      partial_ = std::make_unique<ScratchBuffer>(my_bytes_);
      result_ = partial_->data();
    }
  }

 private:
  struct Peer {
    bool known = false;
    std::uint64_t send = 0, result = 0;
    bool reduced = false;      // its slice is reduced (it no longer reads our send buffer)
    std::size_t pulled = 0;    // bytes of its reduced slice copied out to us
    bool known_empty = false;  // its slice is empty: counted as pulled
  };

  bool allreduce() const { return plan_.root < 0; }
  // Whether this rank copies every reduced slice into its recv buffer.
  bool copies_out() const { return allreduce() || plan_.root == rank(); }
  std::size_t slice_bytes(int r) const {
    return slices_.length(static_cast<std::size_t>(r)) * element_;
  }
  std::size_t slice_offset(int r) const {
    return slices_.offset(static_cast<std::size_t>(r)) * element_;
  }

  void start() override {
    auto send = reinterpret_cast<std::uintptr_t>(plan_.send);
    auto result = reinterpret_cast<std::uintptr_t>(result_);
    for (int p = 0; p < size(); ++p) {
      if (p == rank()) continue;
      Peer& peer = peers_[static_cast<std::size_t>(p)];
      notify(p, tags_.address, send, result);
      expect(p, tags_.address, 1, [this, &peer](const Notice& n) {
        peer.known = true;
        peer.send = n.first;
        peer.result = n.second;
        ++known_;
      });
      expect(p, tags_.reduced, 1, [this, &peer](const Notice&) {
        peer.reduced = true;
        ++reduced_seen_;
      });
      // "finished" comes from every rank that copies our slice out.
      if (allreduce() || p == plan_.root) {
        expect(p, tags_.finished, 1, [this](const Notice&) { ++finished_seen_; });
      }
    }
  }

  void read(int peer, std::uint64_t address, void* local, std::size_t bytes) {
    if (failed() || bytes == 0) return;
    Status status = memory().read(
        comm().world_rank(peer),
        reinterpret_cast<const void*>(static_cast<std::uintptr_t>(address)), local, bytes);
    if (!status.ok()) record_failure(std::move(status));
  }

  // One chunk of this rank's slice, reduced over all ranks in rank order.
  void reduce_chunk() {
    std::size_t n = std::min(chunk_, my_bytes_ - reduced_);
    std::size_t offset = my_offset_ + reduced_;
    auto* own = static_cast<const std::byte*>(plan_.send) + offset;
    for (int k = 0; k < size() && !failed(); ++k) {
      const std::byte* part = own;
      if (k != rank()) {
        std::byte* into = k == 0 ? accumulator_.data() : incoming_.data();
        read(k, peers_[static_cast<std::size_t>(k)].send + offset, into, n);
        part = into;
      }
      if (k == 0) {
        if (part != accumulator_.data()) std::memcpy(accumulator_.data(), part, n);
      } else if (!failed()) {
        reduce_into(plan_.op, plan_.type, accumulator_.data(), part, n / element_);
      }
    }
    // Written only now: with kInPlace the send and result buffers are the same memory.
    if (!failed()) std::memcpy(result_ + reduced_, accumulator_.data(), n);
    reduced_ += n;
  }

  // One chunk of another rank's reduced slice; false when none is ready.
  bool pull_chunk() {
    for (int p = 0; p < size(); ++p) {
      Peer& peer = peers_[static_cast<std::size_t>(p)];
      std::size_t total = slice_bytes(p);
      if (p == rank() || !peer.reduced || peer.pulled == total) continue;
      std::size_t n = std::min(kCmaChunkBytes, total - peer.pulled);
      read(p, peer.result + peer.pulled,
           static_cast<std::byte*>(plan_.recv) + slice_offset(p) + peer.pulled, n);
      peer.pulled += n;
      if (peer.pulled == total) ++pulled_slices_;
      return true;
    }
    return false;
  }

  void advance() override {
    if (known_ < size() - 1) return;
    if (reduced_ < my_bytes_) {
      // About kCmaChunkBytes per event-loop pass, as the pulls do.
      for (std::size_t done = 0; done < kCmaChunkBytes && reduced_ < my_bytes_; done += chunk_) {
        reduce_chunk();
      }
      schedule();
      return;
    }
    if (!announced_reduced_) {
      announced_reduced_ = true;
      for (int p = 0; p < size(); ++p) {
        if (p != rank()) notify(p, tags_.reduced);
      }
    }
    if (!copies_out()) return;
    // Peers whose slice is empty have nothing to pull.
    for (int p = 0; p < size(); ++p) {
      Peer& peer = peers_[static_cast<std::size_t>(p)];
      if (p != rank() && peer.reduced && slice_bytes(p) == 0 && !peer.known_empty) {
        peer.known_empty = true;
        ++pulled_slices_;
      }
    }
    if (pull_chunk()) {
      schedule();
      return;
    }
    if (pulled_slices_ == size() - 1 && !announced_finished_) {
      announced_finished_ = true;
      for (int p = 0; p < size(); ++p) {
        if (p != rank()) notify(p, tags_.finished);
      }
    }
  }

  bool finished() const override {
    if (!announced_reduced_ || reduced_seen_ < size() - 1) return false;
    if (copies_out() && !announced_finished_) return false;
    int expected_finished = allreduce() ? size() - 1 : (rank() == plan_.root ? 0 : 1);
    return finished_seen_ == expected_finished;
  }

  SliceReducePlan plan_;
  SliceReduceTags tags_;
  std::size_t element_;
  base::BlockPartition slices_;
  std::vector<Peer> peers_;
  std::size_t my_offset_ = 0, my_bytes_ = 0, chunk_ = 0;
  std::byte* result_ = nullptr;                        // where this rank's reduced slice lies
  std::unique_ptr<ScratchBuffer> partial_;             // that place, on a non-root rank of reduce
  ScratchBuffer accumulator_{kReduceChunkBytes + 64};  // one chunk being reduced
  ScratchBuffer incoming_{kReduceChunkBytes + 64};     // one chunk read from a peer
  std::size_t reduced_ = 0;                            // bytes of this rank's slice reduced so far
  int known_ = 0, reduced_seen_ = 0, finished_seen_ = 0, pulled_slices_ = 0;
  bool announced_reduced_ = false, announced_finished_ = false;
};

}  // namespace

Request start_cma_slice_reduce(const Communicator& comm, NodeMemory& memory, SliceReducePlan plan,
                               SliceReduceTags tags) {
  return NoticeMachine::launch(std::make_shared<CmaSliceReduce>(comm, memory, plan, tags));
}

}  // namespace halyard::intranode
