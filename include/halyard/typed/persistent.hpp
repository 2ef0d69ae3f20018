// The typed persistent collectives: the *_init calls of collectives/persistent.hpp on spans and
// contiguous ranges, deduced as the typed i-calls are (typed/collectives.hpp), with the same
// size checks, once, at init. A function object passed as the op stays registered for as long
// as the PersistentCollective lives.
//
// The buffers are used by every round, so they must outlive the plan: a temporary container
// (an rvalue std::vector) does not compile here; views (std::span) and lvalues do.
#pragma once

#include <memory>
#include <ranges>

#include "collectives/persistent.hpp"
#include "halyard/typed/collectives.hpp"

namespace halyard {
namespace typed_detail {

// The buffers a plan keeps pointing at must outlive the call that made it
// (std::ranges::borrowed_range: an lvalue or a view).
template <class... R>
constexpr void check_plannable() {
  static_assert((std::ranges::borrowed_range<R> && ...),
                "halyard: a persistent collective uses its buffers at every start(): pass an "
                "lvalue or a view (std::span), not a temporary container");
}

inline PersistentCollective keeping(const Reduction& reduction, PersistentCollective plan) {
  if (reduction.lease) plan.keep(reduction.lease);
  return plan;
}

}  // namespace typed_detail

template <Buffer B>
PersistentCollective bcast_init(const Communicator& comm, B&& buffer, int root) {
  typed_detail::check_plannable<B>();
  using T = typed_detail::element_t<B>;
  const auto data = typed_detail::out_span(buffer);
  return bcast_init(comm, data.data(), typed_detail::wire_count<T>(data.size()),
                    typed_detail::wire_type<T>, root);
}

template <Buffer S, Buffer R, ReductionOf<S> O>
PersistentCollective reduce_init(const Communicator& comm, S&& send, R&& recv, const O& op,
                                 int root) {
  typed_detail::check_plannable<S, R>();
  const auto c = typed_detail::elementwise<true>("reduce", send, recv, op, comm.rank() == root);
  return typed_detail::keeping(c.reduction, reduce_init(comm, c.send, c.recv, c.count,
                                                        c.reduction.type, c.reduction.op, root));
}
template <Buffer B, ReductionOf<B> O>
PersistentCollective reduce_init(const Communicator& comm, B&& inout, const O& op, int root) {
  typed_detail::check_plannable<B>();
  const auto c = typed_detail::elementwise_in_place<true>(inout, op, comm.rank() == root);
  return typed_detail::keeping(c.reduction, reduce_init(comm, c.send, c.recv, c.count,
                                                        c.reduction.type, c.reduction.op, root));
}

template <Buffer S, Buffer R, ReductionOf<S> O = PredefinedOp<Op::kSum>>
PersistentCollective allreduce_init(const Communicator& comm, S&& send, R&& recv,
                                    const O& op = {}) {
  typed_detail::check_plannable<S, R>();
  const auto c = typed_detail::elementwise<true>("allreduce", send, recv, op, true);
  return typed_detail::keeping(
      c.reduction, allreduce_init(comm, c.send, c.recv, c.count, c.reduction.type, c.reduction.op));
}
template <Buffer B, ReductionOf<B> O = PredefinedOp<Op::kSum>>
PersistentCollective allreduce_init(const Communicator& comm, B&& inout, const O& op = {}) {
  typed_detail::check_plannable<B>();
  const auto c = typed_detail::elementwise_in_place<true>(inout, op);
  return typed_detail::keeping(
      c.reduction, allreduce_init(comm, c.send, c.recv, c.count, c.reduction.type, c.reduction.op));
}

// scan and exscan (predefined ops only, as their i-calls).
template <Buffer S, Buffer R, ReductionOf<S> O = PredefinedOp<Op::kSum>>
PersistentCollective scan_init(const Communicator& comm, S&& send, R&& recv, const O& op = {}) {
  typed_detail::check_plannable<S, R>();
  const auto c = typed_detail::elementwise<false>("scan", send, recv, op, true);
  return scan_init(comm, c.send, c.recv, c.count, c.reduction.type, c.reduction.op);
}
template <Buffer S, Buffer R, ReductionOf<S> O = PredefinedOp<Op::kSum>>
PersistentCollective exscan_init(const Communicator& comm, S&& send, R&& recv, const O& op = {}) {
  typed_detail::check_plannable<S, R>();
  const auto c = typed_detail::elementwise<false>("exscan", send, recv, op, true);
  return exscan_init(comm, c.send, c.recv, c.count, c.reduction.type, c.reduction.op);
}

template <Buffer S, Buffer R, ReductionOf<S> O = PredefinedOp<Op::kSum>>
PersistentCollective reduce_scatter_block_init(const Communicator& comm, S&& send, R&& recv,
                                               const O& op = {}) {
  typed_detail::check_plannable<S, R>();
  const auto c = typed_detail::blockwise(comm, send, recv, op);
  return reduce_scatter_block_init(comm, c.send, c.recv, c.count, c.reduction.type, c.reduction.op);
}

template <Buffer S, Buffer R>
PersistentCollective allgather_init(const Communicator& comm, S&& send, R&& recv) {
  typed_detail::check_plannable<S, R>();
  const auto c = typed_detail::gathering("allgather", comm, send, recv, true);
  return allgather_init(comm, c.send, c.recv, c.count, c.type);
}
template <Buffer B>
PersistentCollective allgather_init(const Communicator& comm, B&& inout) {
  typed_detail::check_plannable<B>();
  const auto b = typed_detail::blocks("allgather", comm, inout);
  const auto c = typed_detail::gathering("allgather", comm, b.mine, b.whole, true);
  return allgather_init(comm, kInPlace, c.recv, c.count, c.type);
}

template <Buffer S, Buffer R>
PersistentCollective gather_init(const Communicator& comm, S&& send, R&& recv, int root) {
  typed_detail::check_plannable<S, R>();
  const auto c = typed_detail::gathering("gather", comm, send, recv, comm.rank() == root);
  return gather_init(comm, c.send, c.recv, c.count, c.type, root);
}

template <Buffer S, Buffer R>
PersistentCollective scatter_init(const Communicator& comm, S&& send, R&& recv, int root) {
  typed_detail::check_plannable<S, R>();
  const auto c = typed_detail::scattering(comm, send, recv, comm.rank() == root);
  return scatter_init(comm, c.send, c.recv, c.count, c.type, root);
}

template <Buffer S, Buffer R>
PersistentCollective alltoall_init(const Communicator& comm, S&& send, R&& recv) {
  typed_detail::check_plannable<S, R>();
  const auto in = typed_detail::in_span(send);
  const std::size_t block = typed_detail::block_of(in.size(), comm.size(), "alltoall");
  const auto c = typed_detail::gathering("alltoall", comm, in.first(block), recv, true);
  return alltoall_init(comm, c.send, c.recv, c.count, c.type);
}

}  // namespace halyard
