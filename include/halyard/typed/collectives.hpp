// The typed collectives: the calls of collectives/collectives.hpp on std::span and any other
// contiguous, sized range (std::vector, std::array, C arrays), with the Datatype and the count
// deduced from the element type and the buffer sizes. They forward to the pointer API (which
// stays, for the MPI shim and generic code), so they run the same algorithms at the same cost.
//
// Blocking forms return when this rank's part is done and throw halyard::Error on failure;
// the i-forms return the Request (wait(), test(), on_complete()), and their buffers must stay
// alive and untouched until it completes. A buffer too small for what the call moves throws
// Error(kInvalidArgument) on the calling rank before anything is sent. One-buffer overloads
// are the in-place forms (MPI_IN_PLACE). Buffers that are significant at the root only
// (reduce's and gather's receive, scatter's send) may be empty elsewhere.
//
// The op defaults to halyard::sum where MPI has no default either way to pick one.
#pragma once

#include <cstddef>
#include <ranges>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "collectives/collectives.hpp"
#include "halyard/typed/element_types.hpp"
#include "halyard/typed/ops.hpp"
#include "runtime/communicator.hpp"
#include "runtime/support/error.hpp"

namespace halyard {
namespace typed_detail {

template <class R>
concept Buffer = std::ranges::contiguous_range<R> && std::ranges::sized_range<R>;

template <Buffer R>
using element_t = std::remove_cvref_t<std::ranges::range_reference_t<R>>;

template <class T>
constexpr void check_element() {
  static_assert(Transferable<T>,
                "halyard: collective buffers need a trivially copyable element type (the runtime "
                "moves their bytes); pack std::string, std::vector and the like yourself");
}

// A buffer the call reads.
template <Buffer R>
std::span<const element_t<R>> in_span(R&& buffer) {
  check_element<element_t<R>>();
  return {std::ranges::data(buffer), std::ranges::size(buffer)};
}

// A buffer the call writes.
template <Buffer R>
std::span<element_t<R>> out_span(R&& buffer) {
  check_element<element_t<R>>();
  static_assert(!std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<R>>>,
                "halyard: this buffer receives data and must be writable (its elements are const)");
  return {std::ranges::data(buffer), std::ranges::size(buffer)};
}

template <class Send, class Recv>
constexpr void check_same_element() {
  static_assert(std::is_same_v<Send, Recv>,
                "halyard: send and receive buffers must hold the same element type");
}

inline void require(bool ok, const char* call, const char* what) {
  if (!ok) throw Error(ErrorCode::kInvalidArgument, std::string("halyard::") + call + ": " + what);
}

// How many blocks of `n` elements `buffer` holds as its size() blocks, or throws.
inline std::size_t block_of(std::size_t elements, int ranks, const char* call) {
  const auto size = static_cast<std::size_t>(ranks);
  require(elements % size == 0, call,
          "the buffer's size is not a multiple of the communicator size");
  return elements / size;
}

template <class T>
std::size_t wire_count(std::size_t elements) {
  return elements * wire_per_element<T>;
}

template <class T>
T* or_null(std::span<T> buffer) {
  return buffer.empty() ? nullptr : buffer.data();
}

// A reducing call's arguments for the pointer API.
struct ReducingCall {
  const void* send;
  void* recv;
  std::size_t count;
  Reduction reduction;
};

// The pointer API's element-wise reducing calls (allreduce, scan, exscan, reduce_scatter_block),
// run with a prepared call; the non-blocking ones keep a custom op registered until done.
using ReducingRun = void (*)(const Communicator&, const void*, void*, std::size_t, Datatype, Op);
using ReducingPost = Request (*)(const Communicator&, const void*, void*, std::size_t, Datatype,
                                 Op);
inline void run(ReducingRun call, const Communicator& comm, const ReducingCall& c) {
  call(comm, c.send, c.recv, c.count, c.reduction.type, c.reduction.op);
}
inline Request run(ReducingPost post, const Communicator& comm, const ReducingCall& c) {
  return c.reduction.hold(post(comm, c.send, c.recv, c.count, c.reduction.type, c.reduction.op));
}

// send and recv of equal length (recv significant on this rank or not).
template <bool kCustomAllowed, class S, class R, class O>
ReducingCall elementwise(const char* call, S&& send, R&& recv, const O& op, bool significant) {
  const auto in = in_span(send);
  const auto out = out_span(recv);
  using T = element_t<S>;
  check_same_element<T, element_t<R>>();
  require(!significant || out.size() >= in.size(), call,
          "the receive buffer is smaller than the send buffer");
  Reduction reduction = reduction_for<T, kCustomAllowed>(op);
  return {in.data(), or_null(out), in.size() * reduction.per_element, std::move(reduction)};
}

// One buffer, input and result (send = kInPlace), or, where `in_place` is false (a reduce's
// non-root ranks), only the input (recv is not significant there: null, as the pointer API
// allows, so no algorithm can take it for scratch space over its own input).
template <bool kCustomAllowed, class B, class O>
ReducingCall elementwise_in_place(B&& inout, const O& op, bool in_place = true) {
  const auto buffer = out_span(inout);
  Reduction reduction = reduction_for<element_t<B>, kCustomAllowed>(op);
  const std::size_t count = buffer.size() * reduction.per_element;
  if (!in_place) return {buffer.data(), nullptr, count, std::move(reduction)};
  return {kInPlace, buffer.data(), count, std::move(reduction)};
}

// reduce_scatter_block: send holds size() blocks of recv's length.
template <class S, class R, class O>
ReducingCall blockwise(const Communicator& comm, S&& send, R&& recv, const O& op) {
  const auto in = in_span(send);
  const auto out = out_span(recv);
  using T = element_t<S>;
  check_same_element<T, element_t<R>>();
  require(in.size() >= out.size() * static_cast<std::size_t>(comm.size()), "reduce_scatter_block",
          "the send buffer holds fewer than size() receive blocks");
  Reduction reduction = reduction_for<T, false>(op);
  return {in.data(), out.data(), out.size() * reduction.per_element, std::move(reduction)};
}

template <class B, class O>
ReducingCall blockwise_in_place(const Communicator& comm, B&& inout, const O& op) {
  const auto buffer = out_span(inout);
  const std::size_t block = block_of(buffer.size(), comm.size(), "reduce_scatter_block");
  Reduction reduction = reduction_for<element_t<B>, false>(op);
  return {kInPlace, buffer.data(), block * reduction.per_element, std::move(reduction)};
}

// A data-moving call's arguments for the pointer API.
struct MovingCall {
  const void* send;
  void* recv;
  std::size_t count;  // per block, in elements of `type`
  Datatype type;
};

// allgather/gather/alltoall: recv holds size() blocks of send's length (if significant).
template <class S, class R>
MovingCall gathering(const char* call, const Communicator& comm, S&& send, R&& recv,
                     bool significant) {
  const auto in = in_span(send);
  const auto out = out_span(recv);
  using T = element_t<S>;
  check_same_element<T, element_t<R>>();
  require(!significant || out.size() >= in.size() * static_cast<std::size_t>(comm.size()), call,
          "the receive buffer holds fewer than size() send buffers");
  return {in.data(), or_null(out), wire_count<T>(in.size()), wire_type<T>};
}

// scatter: send holds size() blocks of recv's length (if significant).
template <class S, class R>
MovingCall scattering(const Communicator& comm, S&& send, R&& recv, bool significant) {
  const auto in = in_span(send);
  const auto out = out_span(recv);
  using T = element_t<R>;
  check_same_element<element_t<S>, T>();
  require(!significant || in.size() >= out.size() * static_cast<std::size_t>(comm.size()),
          "scatter", "the send buffer holds fewer than size() receive buffers");
  return {or_null(in), out.data(), wire_count<T>(out.size()), wire_type<T>};
}

// One buffer of size() blocks, this rank's own block in place.
template <class B>
struct BlockBuffer {
  std::span<element_t<B>> whole;
  std::size_t block;  // elements per block
  std::span<element_t<B>> mine;
};
template <class B>
BlockBuffer<B> blocks(const char* call, const Communicator& comm, B&& buffer) {
  const auto whole = out_span(buffer);
  const std::size_t block = block_of(whole.size(), comm.size(), call);
  return {whole, block, whole.subspan(block * static_cast<std::size_t>(comm.rank()), block)};
}

}  // namespace typed_detail

using typed_detail::Buffer;

// An op for the elements of buffer B (ReductionFor, ops.hpp).
template <class O, class B>
concept ReductionOf = ReductionFor<O, typed_detail::element_t<B>>;

// ---- bcast: `buffer` holds the data at `root`, the destination elsewhere.
template <Buffer B>
Request ibcast(const Communicator& comm, B&& buffer, int root) {
  using T = typed_detail::element_t<B>;
  const auto data = typed_detail::out_span(buffer);
  return ibcast(comm, data.data(), typed_detail::wire_count<T>(data.size()),
                typed_detail::wire_type<T>, root);
}
template <Buffer B>
void bcast(const Communicator& comm, B&& buffer, int root) {
  using T = typed_detail::element_t<B>;
  const auto data = typed_detail::out_span(buffer);
  bcast(comm, data.data(), typed_detail::wire_count<T>(data.size()), typed_detail::wire_type<T>,
        root);
}

// ---- reduce: recv (at root; may be empty elsewhere) = send reduced over ranks.
template <Buffer S, Buffer R, ReductionOf<S> O>
Request ireduce(const Communicator& comm, S&& send, R&& recv, const O& op, int root) {
  const auto c = typed_detail::elementwise<true>("reduce", send, recv, op, comm.rank() == root);
  return c.reduction.hold(
      ireduce(comm, c.send, c.recv, c.count, c.reduction.type, c.reduction.op, root));
}
template <Buffer S, Buffer R, ReductionOf<S> O>
void reduce(const Communicator& comm, S&& send, R&& recv, const O& op, int root) {
  const auto c = typed_detail::elementwise<true>("reduce", send, recv, op, comm.rank() == root);
  reduce(comm, c.send, c.recv, c.count, c.reduction.type, c.reduction.op, root);
}
// In place: every rank's input is `inout`; the result lands in root's.
template <Buffer B, ReductionOf<B> O>
Request ireduce(const Communicator& comm, B&& inout, const O& op, int root) {
  const auto c = typed_detail::elementwise_in_place<true>(inout, op, comm.rank() == root);
  return c.reduction.hold(
      ireduce(comm, c.send, c.recv, c.count, c.reduction.type, c.reduction.op, root));
}
template <Buffer B, ReductionOf<B> O>
void reduce(const Communicator& comm, B&& inout, const O& op, int root) {
  const auto c = typed_detail::elementwise_in_place<true>(inout, op, comm.rank() == root);
  reduce(comm, c.send, c.recv, c.count, c.reduction.type, c.reduction.op, root);
}

// ---- allreduce, scan (inclusive prefix) and exscan (exclusive; rank 0's recv is untouched):
// element-wise, send and recv of one length, or one buffer in place.
template <Buffer S, Buffer R, ReductionOf<S> O = PredefinedOp<Op::kSum>>
Request iallreduce(const Communicator& comm, S&& send, R&& recv, const O& op = {}) {
  return typed_detail::run(halyard::iallreduce, comm,
                           typed_detail::elementwise<true>("allreduce", send, recv, op, true));
}
template <Buffer S, Buffer R, ReductionOf<S> O = PredefinedOp<Op::kSum>>
void allreduce(const Communicator& comm, S&& send, R&& recv, const O& op = {}) {
  typed_detail::run(halyard::allreduce, comm,
                    typed_detail::elementwise<true>("allreduce", send, recv, op, true));
}
template <Buffer B, ReductionOf<B> O = PredefinedOp<Op::kSum>>
Request iallreduce(const Communicator& comm, B&& inout, const O& op = {}) {
  return typed_detail::run(halyard::iallreduce, comm,
                           typed_detail::elementwise_in_place<true>(inout, op));
}
template <Buffer B, ReductionOf<B> O = PredefinedOp<Op::kSum>>
void allreduce(const Communicator& comm, B&& inout, const O& op = {}) {
  typed_detail::run(halyard::allreduce, comm, typed_detail::elementwise_in_place<true>(inout, op));
}

template <Buffer S, Buffer R, ReductionOf<S> O = PredefinedOp<Op::kSum>>
Request iscan(const Communicator& comm, S&& send, R&& recv, const O& op = {}) {
  return typed_detail::run(halyard::iscan, comm,
                           typed_detail::elementwise<false>("scan", send, recv, op, true));
}
template <Buffer S, Buffer R, ReductionOf<S> O = PredefinedOp<Op::kSum>>
void scan(const Communicator& comm, S&& send, R&& recv, const O& op = {}) {
  typed_detail::run(halyard::scan, comm,
                    typed_detail::elementwise<false>("scan", send, recv, op, true));
}
template <Buffer B, ReductionOf<B> O = PredefinedOp<Op::kSum>>
Request iscan(const Communicator& comm, B&& inout, const O& op = {}) {
  return typed_detail::run(halyard::iscan, comm,
                           typed_detail::elementwise_in_place<false>(inout, op));
}
template <Buffer B, ReductionOf<B> O = PredefinedOp<Op::kSum>>
void scan(const Communicator& comm, B&& inout, const O& op = {}) {
  typed_detail::run(halyard::scan, comm, typed_detail::elementwise_in_place<false>(inout, op));
}

template <Buffer S, Buffer R, ReductionOf<S> O = PredefinedOp<Op::kSum>>
Request iexscan(const Communicator& comm, S&& send, R&& recv, const O& op = {}) {
  return typed_detail::run(halyard::iexscan, comm,
                           typed_detail::elementwise<false>("exscan", send, recv, op, true));
}
template <Buffer S, Buffer R, ReductionOf<S> O = PredefinedOp<Op::kSum>>
void exscan(const Communicator& comm, S&& send, R&& recv, const O& op = {}) {
  typed_detail::run(halyard::exscan, comm,
                    typed_detail::elementwise<false>("exscan", send, recv, op, true));
}
template <Buffer B, ReductionOf<B> O = PredefinedOp<Op::kSum>>
Request iexscan(const Communicator& comm, B&& inout, const O& op = {}) {
  return typed_detail::run(halyard::iexscan, comm,
                           typed_detail::elementwise_in_place<false>(inout, op));
}
template <Buffer B, ReductionOf<B> O = PredefinedOp<Op::kSum>>
void exscan(const Communicator& comm, B&& inout, const O& op = {}) {
  typed_detail::run(halyard::exscan, comm, typed_detail::elementwise_in_place<false>(inout, op));
}

// ---- reduce_scatter_block: send holds size() blocks of recv's length, reduced over ranks;
// rank r's recv gets block r. In place: `inout` holds the size() blocks, block 0 gets the result.
template <Buffer S, Buffer R, ReductionOf<S> O = PredefinedOp<Op::kSum>>
Request ireduce_scatter_block(const Communicator& comm, S&& send, R&& recv, const O& op = {}) {
  return typed_detail::run(halyard::ireduce_scatter_block, comm,
                           typed_detail::blockwise(comm, send, recv, op));
}
template <Buffer S, Buffer R, ReductionOf<S> O = PredefinedOp<Op::kSum>>
void reduce_scatter_block(const Communicator& comm, S&& send, R&& recv, const O& op = {}) {
  typed_detail::run(halyard::reduce_scatter_block, comm,
                    typed_detail::blockwise(comm, send, recv, op));
}
template <Buffer B, ReductionOf<B> O = PredefinedOp<Op::kSum>>
Request ireduce_scatter_block(const Communicator& comm, B&& inout, const O& op = {}) {
  return typed_detail::run(halyard::ireduce_scatter_block, comm,
                           typed_detail::blockwise_in_place(comm, inout, op));
}
template <Buffer B, ReductionOf<B> O = PredefinedOp<Op::kSum>>
void reduce_scatter_block(const Communicator& comm, B&& inout, const O& op = {}) {
  typed_detail::run(halyard::reduce_scatter_block, comm,
                    typed_detail::blockwise_in_place(comm, inout, op));
}

// ---- allgather: recv holds size() blocks of send's length, block r from rank r. In place:
// `inout` holds the size() blocks, this rank's own already at its place.
template <Buffer S, Buffer R>
Request iallgather(const Communicator& comm, S&& send, R&& recv) {
  const auto c = typed_detail::gathering("allgather", comm, send, recv, true);
  return iallgather(comm, c.send, c.recv, c.count, c.type);
}
template <Buffer S, Buffer R>
void allgather(const Communicator& comm, S&& send, R&& recv) {
  const auto c = typed_detail::gathering("allgather", comm, send, recv, true);
  allgather(comm, c.send, c.recv, c.count, c.type);
}
template <Buffer B>
Request iallgather(const Communicator& comm, B&& inout) {
  const auto b = typed_detail::blocks("allgather", comm, inout);
  const auto c = typed_detail::gathering("allgather", comm, b.mine, b.whole, true);
  return iallgather(comm, kInPlace, c.recv, c.count, c.type);
}
template <Buffer B>
void allgather(const Communicator& comm, B&& inout) {
  const auto b = typed_detail::blocks("allgather", comm, inout);
  const auto c = typed_detail::gathering("allgather", comm, b.mine, b.whole, true);
  allgather(comm, kInPlace, c.recv, c.count, c.type);
}

// ---- gather: at root, recv holds size() blocks of send's length (empty elsewhere is fine).
// In place: `buffer` holds size() blocks on every rank; rank r contributes its block r.
template <Buffer S, Buffer R>
Request igather(const Communicator& comm, S&& send, R&& recv, int root) {
  const auto c = typed_detail::gathering("gather", comm, send, recv, comm.rank() == root);
  return igather(comm, c.send, c.recv, c.count, c.type, root);
}
template <Buffer S, Buffer R>
void gather(const Communicator& comm, S&& send, R&& recv, int root) {
  const auto c = typed_detail::gathering("gather", comm, send, recv, comm.rank() == root);
  gather(comm, c.send, c.recv, c.count, c.type, root);
}
template <Buffer B>
Request igather(const Communicator& comm, B&& buffer, int root) {
  const auto b = typed_detail::blocks("gather", comm, buffer);
  const auto c = typed_detail::gathering("gather", comm, b.mine, b.whole, true);
  return igather(comm, comm.rank() == root ? kInPlace : c.send, c.recv, c.count, c.type, root);
}
template <Buffer B>
void gather(const Communicator& comm, B&& buffer, int root) {
  const auto b = typed_detail::blocks("gather", comm, buffer);
  const auto c = typed_detail::gathering("gather", comm, b.mine, b.whole, true);
  gather(comm, comm.rank() == root ? kInPlace : c.send, c.recv, c.count, c.type, root);
}

// ---- scatter: root's send holds size() blocks of recv's length (empty elsewhere is fine);
// block r goes to rank r. In place: `buffer` holds size() blocks on every rank; rank r
// receives its block r (root's own stays where it is).
template <Buffer S, Buffer R>
Request iscatter(const Communicator& comm, S&& send, R&& recv, int root) {
  const auto c = typed_detail::scattering(comm, send, recv, comm.rank() == root);
  return iscatter(comm, c.send, c.recv, c.count, c.type, root);
}
template <Buffer S, Buffer R>
void scatter(const Communicator& comm, S&& send, R&& recv, int root) {
  const auto c = typed_detail::scattering(comm, send, recv, comm.rank() == root);
  scatter(comm, c.send, c.recv, c.count, c.type, root);
}
template <Buffer B>
Request iscatter(const Communicator& comm, B&& buffer, int root) {
  const auto b = typed_detail::blocks("scatter", comm, buffer);
  const auto c = typed_detail::scattering(comm, b.whole, b.mine, true);
  void* recv = comm.rank() == root ? const_cast<void*>(kInPlace) : c.recv;
  return iscatter(comm, c.send, recv, c.count, c.type, root);
}
template <Buffer B>
void scatter(const Communicator& comm, B&& buffer, int root) {
  const auto b = typed_detail::blocks("scatter", comm, buffer);
  const auto c = typed_detail::scattering(comm, b.whole, b.mine, true);
  void* recv = comm.rank() == root ? const_cast<void*>(kInPlace) : c.recv;
  scatter(comm, c.send, recv, c.count, c.type, root);
}

// ---- alltoall: send and recv hold size() blocks each; block r of send goes to rank r, which
// stores it as block s for this rank s. In place: one buffer of size() blocks both ways.
template <Buffer S, Buffer R>
Request ialltoall(const Communicator& comm, S&& send, R&& recv) {
  const auto in = typed_detail::in_span(send);
  const std::size_t block = typed_detail::block_of(in.size(), comm.size(), "alltoall");
  const auto c = typed_detail::gathering("alltoall", comm, in.first(block), recv, true);
  return ialltoall(comm, c.send, c.recv, c.count, c.type);
}
template <Buffer S, Buffer R>
void alltoall(const Communicator& comm, S&& send, R&& recv) {
  const auto in = typed_detail::in_span(send);
  const std::size_t block = typed_detail::block_of(in.size(), comm.size(), "alltoall");
  const auto c = typed_detail::gathering("alltoall", comm, in.first(block), recv, true);
  alltoall(comm, c.send, c.recv, c.count, c.type);
}
// The pointer API has no in-place alltoall; alltoallv has (its count arrays are read during the
// call only).
template <Buffer B>
Request ialltoall(const Communicator& comm, B&& inout) {
  const auto b = typed_detail::blocks("alltoall", comm, inout);
  const auto c = typed_detail::gathering("alltoall", comm, b.mine, b.whole, true);
  const auto ranks = static_cast<std::size_t>(comm.size());
  std::vector<std::size_t> counts(ranks, c.count), displacements(ranks);
  for (std::size_t r = 0; r < ranks; ++r) displacements[r] = r * c.count;
  return ialltoallv(comm, kInPlace, nullptr, nullptr, c.recv, counts.data(), displacements.data(),
                    c.type);
}
template <Buffer B>
void alltoall(const Communicator& comm, B&& inout) {
  ialltoall(comm, std::forward<B>(inout)).wait_ok();
}

}  // namespace halyard
