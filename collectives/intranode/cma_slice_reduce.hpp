// CmaSliceReduce: the "cma" flavour of reduce and allreduce (dissertation Figure 5.4).
//
// The vector is cut into one slice per rank. Every rank reduces its own slice over all ranks at
// once, reading the other ranks' parts of that slice straight out of their send buffers with
// CMA, in rank order (so the result does not depend on timing). Then the reduced slices are
// copied out with one more CMA read each: by every rank (allreduce) or by the root (reduce).
// All ranks reduce in parallel, so the reduction costs about 1/n of the vector per rank.
//
// Buffers of a derived datatype (send_layout, recv_layout) cost no staging around the call: the
// parts the other ranks read are packed once before the addresses go out (they read with CMA,
// which needs contiguous bytes), this rank's own slice is packed chunk by chunk into the buffer
// it reduces in anyway, each reduced chunk is unpacked where the result goes (and kept packed
// for the others to read), and the other slices are read in cache-sized pieces and unpacked.
//
// Notices per ordered pair, each on its own tag: the addresses (send buffer, reduced slice), then
// "my slice is reduced" (so I am done reading your send buffer), then, from whoever copies the
// reduced slices out, "finished" (so the owner may give its buffers back).
#pragma once

#include <cstddef>
#include <optional>

#include "collectives/intranode/notice_machine.hpp"
#include "runtime/datatypes/buffer_layout.hpp"
#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"

namespace halyard::intranode {

struct SliceReducePlan {
  const void* send = nullptr;  // this rank's contribution (kInPlace already resolved)
  void* recv = nullptr;        // the result: every rank (allreduce) or the root's (reduce)
  std::size_t count = 0;
  Datatype type = Datatype::kUint8;
  Op op = Op::kSum;
  int root = -1;  // -1: allreduce
  // Set where `send` / `recv` hold non-contiguous data (with kInPlace, both the recv layout).
  std::optional<BufferLayout> send_layout;
  std::optional<BufferLayout> recv_layout;
};

struct SliceReduceTags {
  int address = 0;
  int reduced = 0;
  int finished = 0;
};

Request start_cma_slice_reduce(const Communicator& comm, NodeMemory& memory, SliceReducePlan plan,
                               SliceReduceTags tags);

}  // namespace halyard::intranode
