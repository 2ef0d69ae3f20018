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
        plan_(std::move(plan)),
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
    if (copies_out() && !plan_.recv_layout) {
      result_ = static_cast<std::byte*>(plan_.recv) + my_offset_;
    } else {
      // The others read the reduced slice with CMA: contiguous bytes, not the user's layout.
      partial_ = std::make_unique<ScratchBuffer>(my_bytes_);
      result_ = partial_->data();
    }
    if (plan_.send_layout) pack_for_peers();
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

  // A send buffer of a derived type: the other ranks' slices, packed at their offsets (CMA
  // reads contiguous bytes); this rank's own slice is packed chunk by chunk as it is reduced.
  void pack_for_peers() {
    const std::size_t bytes = plan_.count * element_;
    packed_send_ = std::make_unique<ScratchBuffer>(bytes);
    std::byte* packed = packed_send_->data();
    plan_.send_layout->pack(0, my_offset_, packed);
    const std::size_t after = my_offset_ + my_bytes_;
    plan_.send_layout->pack(after, bytes - after, packed + after);
  }

  // Where the others read this rank's contribution.
  const void* shared_send() const {
    return packed_send_ ? static_cast<const void*>(packed_send_->data()) : plan_.send;
  }

  // This rank's own part of bytes [offset, offset + n): the send buffer itself, or packed into
  // `spare` (a chunk buffer) from a derived type.
  const std::byte* own_part(std::size_t offset, std::size_t n, std::byte* spare) const {
    if (!plan_.send_layout) return static_cast<const std::byte*>(plan_.send) + offset;
    plan_.send_layout->pack(offset, n, spare);
    return spare;
  }

  void start() override {
    auto send = reinterpret_cast<std::uintptr_t>(shared_send());
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
    // Reduced where the slice's result lies when that is private memory; the recv buffer itself
    // only after the reduction (with kInPlace it is also the send buffer).
    std::byte* accumulator = partial_ ? result_ + reduced_ : accumulator_.data();
    for (int k = 0; k < size() && !failed(); ++k) {
      std::byte* into = k == 0 ? accumulator : incoming_.data();
      const std::byte* part = into;
      if (k == rank()) {
        part = own_part(offset, n, into);
      } else {
        read(k, peers_[static_cast<std::size_t>(k)].send + offset, into, n);
      }
      if (k == 0) {
        if (part != accumulator) std::memcpy(accumulator, part, n);
      } else if (!failed()) {
        reduce_into(plan_.op, plan_.type, accumulator, part, n / element_);
      }
    }
    if (!failed()) {
      if (accumulator != result_ + reduced_) std::memcpy(result_ + reduced_, accumulator, n);
      if (copies_out() && plan_.recv_layout) plan_.recv_layout->unpack(offset, n, accumulator);
    }
    reduced_ += n;
  }

  // One chunk of another rank's reduced slice; false when none is ready.
  bool pull_chunk() {
    for (int p = 0; p < size(); ++p) {
      Peer& peer = peers_[static_cast<std::size_t>(p)];
      std::size_t total = slice_bytes(p);
      if (p == rank() || !peer.reduced || peer.pulled == total) continue;
      if (plan_.recv_layout) {
        // Read in cache-sized pieces and unpacked from there.
        for (std::size_t done = 0; done < kCmaChunkBytes && peer.pulled < total && !failed();
             done += kReduceChunkBytes) {
          std::size_t n = std::min(kReduceChunkBytes, total - peer.pulled);
          read(p, peer.result + peer.pulled, incoming_.data(), n);
          if (!failed()) {
            plan_.recv_layout->unpack(slice_offset(p) + peer.pulled, n, incoming_.data());
          }
          peer.pulled += n;
        }
      } else {
        std::size_t n = std::min(kCmaChunkBytes, total - peer.pulled);
        read(p, peer.result + peer.pulled,
             static_cast<std::byte*>(plan_.recv) + slice_offset(p) + peer.pulled, n);
        peer.pulled += n;
      }
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
  std::byte* result_ = nullptr;                 // where this rank's reduced slice lies
  std::unique_ptr<ScratchBuffer> partial_;      // that place, where it is not the recv buffer
  std::unique_ptr<ScratchBuffer> packed_send_;  // a derived send type, packed for the others
  ScratchBuffer accumulator_{kReduceChunkBytes + 64};  // one chunk being reduced
  ScratchBuffer incoming_{kReduceChunkBytes + 64};     // one chunk read from a peer
  std::size_t reduced_ = 0;                            // bytes of this rank's slice reduced so far
  int known_ = 0, reduced_seen_ = 0, finished_seen_ = 0, pulled_slices_ = 0;
  bool announced_reduced_ = false, announced_finished_ = false;
};

}  // namespace

Request start_cma_slice_reduce(const Communicator& comm, NodeMemory& memory, SliceReducePlan plan,
                               SliceReduceTags tags) {
  return NoticeMachine::launch(
      std::make_shared<CmaSliceReduce>(comm, memory, std::move(plan), tags));
}

}  // namespace halyard::intranode
