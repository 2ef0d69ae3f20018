// The public collective API (collectives/collectives.hpp): check the arguments, ask the
// selection layer which algorithm runs this call, and start it.
#include "collectives/collectives.hpp"

#include <string>

#include "collectives/base/arguments.hpp"
#include "collectives/base/base.hpp"
#include "collectives/device/device_collectives.hpp"
#include "collectives/device/memory_dispatch.hpp"
#include "collectives/guard/call_guard.hpp"
#include "collectives/han/han.hpp"
#include "collectives/select/adapt_dispatch.hpp"
#include "collectives/select/device_path.hpp"
#include "collectives/select/selection.hpp"
#include "runtime/error.hpp"

namespace halyard {

namespace {

using select::Algorithm;
using select::Collective;
using select::SelectedAlgorithm;

// An algorithm the selection produced but this collective cannot run: a decision table naming
// an algorithm of another collective.
[[noreturn]] void cannot_run(Collective collective, const SelectedAlgorithm& selected) {
  throw Error(ErrorCode::kInvalidArgument,
              std::string(select::collective_name(collective)) + ": the selection chose " +
                  select::algorithm_name(selected) + ", which this collective does not have");
}

SelectedAlgorithm choose(Collective collective, const Communicator& comm, std::size_t count,
                         Datatype type) {
  return select::choose(collective, select::shape_of(comm),
                        base::checked_bytes(count, type, 1, "collective"));
}

// Device buffers take the GPU-aware algorithms (collectives/device), whatever
// HALYARD_<COLL>_ALG says: the host algorithms cannot read device memory.
select::DevicePath device_path(const Communicator& comm, MemoryKind memory) {
  if (memory == MemoryKind::kHost) return select::DevicePath::kHost;
  return select::choose_device_path(memory, select::shape_of(comm));
}

}  // namespace

namespace {

// The collectives as posted once the guard (collectives/guard) let them through.
Request post_bcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type,
                   int root, MemoryKind memory) {
  base::check_communicator(comm, "ibcast");
  base::check_root(comm, root, "ibcast");
  base::check_datatype(type, "ibcast");
  base::check_buffer(buffer, count, "buffer", "ibcast", false);
  if (auto path = device_path(comm, memory); path != select::DevicePath::kHost) {
    return device::ibcast(comm, buffer, count, type, root, path);
  }
  SelectedAlgorithm selected = choose(Collective::kBcast, comm, count, type);
  switch (selected.algorithm) {
    case Algorithm::kLinear:
      return base::ibcast_linear(comm, buffer, count, type, root);
    case Algorithm::kBinomial:
      return base::ibcast_binomial(comm, buffer, count, type, root);
    case Algorithm::kAdapt:
      return adapt::ibcast(comm, buffer, count, type, root,
                           select::adapt_params(Collective::kBcast, selected));
    case Algorithm::kHan:
      return han::ibcast(comm, buffer, count, type, root, selected.han);
    default:
      cannot_run(Collective::kBcast, selected);
  }
}

Request post_reduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                    Datatype type, Op op, int root, MemoryKind memory) {
  base::check_communicator(comm, "ireduce");
  base::check_root(comm, root, "ireduce");
  base::check_reduction(op, type, "ireduce");
  bool is_root = comm.rank() == root;
  base::check_buffer(send, count, "send", "ireduce", is_root);
  if (is_root) base::check_buffer(recv, count, "recv", "ireduce", false);
  if (auto path = device_path(comm, memory); path != select::DevicePath::kHost) {
    return device::ireduce(comm, send, recv, count, type, op, root, path);
  }
  SelectedAlgorithm selected = choose(Collective::kReduce, comm, count, type);
  switch (selected.algorithm) {
    case Algorithm::kLinear:
      return base::ireduce_linear(comm, send, recv, count, type, op, root);
    case Algorithm::kBinomial:
      return base::ireduce_binomial(comm, send, recv, count, type, op, root);
    case Algorithm::kAdapt:
      return adapt::ireduce(comm, send, recv, count, type, op, root,
                            select::adapt_params(Collective::kReduce, selected));
    case Algorithm::kHan:
      return han::ireduce(comm, send, recv, count, type, op, root, selected.han);
    default:
      cannot_run(Collective::kReduce, selected);
  }
}

Request post_allreduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                       Datatype type, Op op, MemoryKind memory) {
  base::check_communicator(comm, "iallreduce");
  base::check_reduction(op, type, "iallreduce");
  base::check_buffer(send, count, "send", "iallreduce", true);
  base::check_buffer(recv, count, "recv", "iallreduce", false);
  if (auto path = device_path(comm, memory); path != select::DevicePath::kHost) {
    return device::iallreduce(comm, send, recv, count, type, op, path);
  }
  SelectedAlgorithm selected = choose(Collective::kAllreduce, comm, count, type);
  switch (selected.algorithm) {
    case Algorithm::kRing:
      return base::iallreduce_ring(comm, send, recv, count, type, op);
    case Algorithm::kRecursiveDoubling:
      return base::iallreduce_recursive_doubling(comm, send, recv, count, type, op);
    case Algorithm::kRabenseifner:
      return base::iallreduce_rabenseifner(comm, send, recv, count, type, op);
    case Algorithm::kHan:
      return han::iallreduce(comm, send, recv, count, type, op, selected.han);
    default:
      cannot_run(Collective::kAllreduce, selected);
  }
}

Request post_allgather(const Communicator& comm, const void* send, void* recv, std::size_t count,
                       Datatype type) {
  base::check_communicator(comm, "iallgather");
  base::check_datatype(type, "iallgather");
  SelectedAlgorithm selected = choose(Collective::kAllgather, comm, count, type);
  switch (selected.algorithm) {
    case Algorithm::kRing:
      return base::iallgather_ring(comm, send, recv, count, type);
    case Algorithm::kBruck:
      return base::iallgather_bruck(comm, send, recv, count, type);
    case Algorithm::kHan:
      return han::iallgather(comm, send, recv, count, type);
    default:
      cannot_run(Collective::kAllgather, selected);
  }
}

Request post_gather(const Communicator& comm, const void* send, void* recv, std::size_t count,
                    Datatype type, int root) {
  base::check_communicator(comm, "igather");
  base::check_datatype(type, "igather");
  SelectedAlgorithm selected = choose(Collective::kGather, comm, count, type);
  if (selected.algorithm != Algorithm::kLinear) cannot_run(Collective::kGather, selected);
  return base::igather_linear(comm, send, recv, count, type, root);
}

Request post_scatter(const Communicator& comm, const void* send, void* recv, std::size_t count,
                     Datatype type, int root) {
  base::check_communicator(comm, "iscatter");
  base::check_datatype(type, "iscatter");
  SelectedAlgorithm selected = choose(Collective::kScatter, comm, count, type);
  if (selected.algorithm != Algorithm::kLinear) cannot_run(Collective::kScatter, selected);
  return base::iscatter_linear(comm, send, recv, count, type, root);
}

Request post_alltoall(const Communicator& comm, const void* send, void* recv, std::size_t count,
                      Datatype type) {
  base::check_communicator(comm, "ialltoall");
  base::check_datatype(type, "ialltoall");
  SelectedAlgorithm selected = choose(Collective::kAlltoall, comm, count, type);
  switch (selected.algorithm) {
    case Algorithm::kPairwise:
      return base::ialltoall_pairwise(comm, send, recv, count, type);
    case Algorithm::kBruck:
      return base::ialltoall_bruck(comm, send, recv, count, type);
    default:
      cannot_run(Collective::kAlltoall, selected);
  }
}

Request post_barrier(const Communicator& comm) {
  base::check_communicator(comm, "ibarrier");
  SelectedAlgorithm selected = choose(Collective::kBarrier, comm, 0, Datatype::kUint8);
  switch (selected.algorithm) {
    case Algorithm::kDissemination:
      return base::ibarrier_dissemination(comm);
    case Algorithm::kHan:
      return han::ibarrier(comm);
    default:
      cannot_run(Collective::kBarrier, selected);
  }
}

}  // namespace

// The public entry points: every call goes through the guard (HALYARD_CHECK, HALYARD_COLL_TIMEOUT).
using guard::CallSignature;

Request ibcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root) {
  const MemoryKind memory = device::call_memory_kind(comm, {{buffer, "buffer"}}, "ibcast");
  return guard::guarded_call(
      comm, CallSignature::rooted(Collective::kBcast, count, type, root).in_memory(memory),
      [&] { return post_bcast(comm, buffer, count, type, root, memory); });
}

Request ireduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, Op op, int root) {
  // recv means something at the root only; elsewhere it may be anything.
  const bool is_root = comm.valid() && comm.rank() == root;
  const MemoryKind memory =
      is_root ? device::call_memory_kind(comm, {{send, "send"}, {recv, "recv"}}, "ireduce")
              : device::call_memory_kind(comm, {{send, "send"}}, "ireduce");
  return guard::guarded_call(
      comm, CallSignature::reduction(Collective::kReduce, count, type, op, root).in_memory(memory),
      [&] { return post_reduce(comm, send, recv, count, type, op, root, memory); });
}

Request iallreduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type, Op op) {
  const MemoryKind memory =
      device::call_memory_kind(comm, {{send, "send"}, {recv, "recv"}}, "iallreduce");
  return guard::guarded_call(
      comm, CallSignature::reduction(Collective::kAllreduce, count, type, op).in_memory(memory),
      [&] { return post_allreduce(comm, send, recv, count, type, op, memory); });
}

Request iallgather(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type) {
  return guard::guarded_call(comm, CallSignature::plain(Collective::kAllgather, count, type),
                             [&] { return post_allgather(comm, send, recv, count, type); });
}

Request igather(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, int root) {
  return guard::guarded_call(comm, CallSignature::rooted(Collective::kGather, count, type, root),
                             [&] { return post_gather(comm, send, recv, count, type, root); });
}

Request iscatter(const Communicator& comm, const void* send, void* recv, std::size_t count,
                 Datatype type, int root) {
  return guard::guarded_call(comm, CallSignature::rooted(Collective::kScatter, count, type, root),
                             [&] { return post_scatter(comm, send, recv, count, type, root); });
}

Request ialltoall(const Communicator& comm, const void* send, void* recv, std::size_t count,
                  Datatype type) {
  return guard::guarded_call(comm, CallSignature::plain(Collective::kAlltoall, count, type),
                             [&] { return post_alltoall(comm, send, recv, count, type); });
}

Request ibarrier(const Communicator& comm) {
  return guard::guarded_call(comm, CallSignature{}, [&] { return post_barrier(comm); });
}

}  // namespace halyard
