// The public collective API (collectives/collectives.hpp): each call becomes one CollArgs,
// validated once (core/validate.hpp), and takes the common path (post_call.hpp).
#include "collectives/collectives.hpp"

#include "collectives/call_args.hpp"
#include "collectives/core/validate.hpp"
#include "collectives/guard/call_guard.hpp"
#include "collectives/guard/call_record.hpp"
#include "collectives/post_call.hpp"
#include "collectives/select/selection.hpp"
#include "runtime/datatypes/reduction.hpp"

namespace halyard {

using core::CollArgs;
using core::Collective;

Request post_call(const CollArgs& args) {
  return guard::guarded_call(args, [&] {
    const select::Choice choice = select::choose(args);
    return guard::recorded_call(args, *choice.entry,
                                [&] { return choice.entry->post(args, choice.params); });
  });
}

Request post_chosen(const CollArgs& args, const select::Choice& choice) {
  return guard::guarded_call(args, [&] { return choice.entry->post(args, choice.params); });
}

bool layouts_taken(const CollArgs& args) {
  const auto takes = select::choose(args).entry->supports.takes_layouts;
  return takes != nullptr && takes(args);
}

namespace {

Request validated_call(CollArgs args) {
  core::validate(args);
  return post_call(args);
}

void blocking_call(CollArgs args) {
  args.blocking = true;
  core::validate(args);
  const Status status = post_call(args).wait();
  guard::record_blocking_end(status);
  status.raise_if_failed();
}

}  // namespace

Request ibcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root) {
  return validated_call(call_args::bcast(comm, buffer, count, type, root));
}

Request ireduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, Op op, int root) {
  return validated_call(
      call_args::reducing(Collective::kReduce, comm, send, recv, count, type, op, root));
}

Request iallreduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type, Op op) {
  return validated_call(
      call_args::reducing(Collective::kAllreduce, comm, send, recv, count, type, op));
}

Request iallgather(const Communicator& comm, const void* send, void* recv, std::size_t count,
                   Datatype type) {
  return validated_call(call_args::moving(Collective::kAllgather, comm, send, recv, count, type));
}

Request igather(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, int root) {
  return validated_call(
      call_args::moving(Collective::kGather, comm, send, recv, count, type, root));
}

Request iscatter(const Communicator& comm, const void* send, void* recv, std::size_t count,
                 Datatype type, int root) {
  return validated_call(
      call_args::moving(Collective::kScatter, comm, send, recv, count, type, root));
}

Request ialltoall(const Communicator& comm, const void* send, void* recv, std::size_t count,
                  Datatype type) {
  return validated_call(call_args::moving(Collective::kAlltoall, comm, send, recv, count, type));
}

Request ibarrier(const Communicator& comm) {
  return validated_call(call_args::barrier(comm));
}

Request igatherv(const Communicator& comm, const void* send, std::size_t count, void* recv,
                 const std::size_t* counts, const std::size_t* displacements, Datatype type,
                 int root) {
  return validated_call(
      call_args::gatherv(comm, send, count, recv, counts, displacements, type, root));
}

Request iscatterv(const Communicator& comm, const void* send, const std::size_t* counts,
                  const std::size_t* displacements, void* recv, std::size_t count, Datatype type,
                  int root) {
  return validated_call(
      call_args::scatterv(comm, send, counts, displacements, recv, count, type, root));
}

Request iallgatherv(const Communicator& comm, const void* send, std::size_t count, void* recv,
                    const std::size_t* counts, const std::size_t* displacements, Datatype type) {
  return validated_call(
      call_args::allgatherv(comm, send, count, recv, counts, displacements, type));
}

Request ialltoallv(const Communicator& comm, const void* send, const std::size_t* send_counts,
                   const std::size_t* send_displacements, void* recv,
                   const std::size_t* recv_counts, const std::size_t* recv_displacements,
                   Datatype type) {
  return validated_call(call_args::alltoallv(comm, send, send_counts, send_displacements, recv,
                                             recv_counts, recv_displacements, type));
}

Request ireduce_scatter_block(const Communicator& comm, const void* send, void* recv,
                              std::size_t count, Datatype type, Op op) {
  return validated_call(
      call_args::reducing(Collective::kReduceScatterBlock, comm, send, recv, count, type, op));
}

Request ireduce_scatter(const Communicator& comm, const void* send, void* recv,
                        const std::size_t* counts, Datatype type, Op op) {
  return validated_call(call_args::reduce_scatter(comm, send, recv, counts, type, op));
}

Request iscan(const Communicator& comm, const void* send, void* recv, std::size_t count,
              Datatype type, Op op) {
  return validated_call(call_args::reducing(Collective::kScan, comm, send, recv, count, type, op));
}

Request iexscan(const Communicator& comm, const void* send, void* recv, std::size_t count,
                Datatype type, Op op) {
  return validated_call(
      call_args::reducing(Collective::kExscan, comm, send, recv, count, type, op));
}

void bcast(const Communicator& comm, void* buffer, std::size_t count, Datatype type, int root) {
  blocking_call(call_args::bcast(comm, buffer, count, type, root));
}

void reduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
            Datatype type, Op op, int root) {
  blocking_call(call_args::reducing(Collective::kReduce, comm, send, recv, count, type, op, root));
}

void allreduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
               Datatype type, Op op) {
  blocking_call(call_args::reducing(Collective::kAllreduce, comm, send, recv, count, type, op));
}

void allgather(const Communicator& comm, const void* send, void* recv, std::size_t count,
               Datatype type) {
  blocking_call(call_args::moving(Collective::kAllgather, comm, send, recv, count, type));
}

void gather(const Communicator& comm, const void* send, void* recv, std::size_t count,
            Datatype type, int root) {
  blocking_call(call_args::moving(Collective::kGather, comm, send, recv, count, type, root));
}

void scatter(const Communicator& comm, const void* send, void* recv, std::size_t count,
             Datatype type, int root) {
  blocking_call(call_args::moving(Collective::kScatter, comm, send, recv, count, type, root));
}

void alltoall(const Communicator& comm, const void* send, void* recv, std::size_t count,
              Datatype type) {
  blocking_call(call_args::moving(Collective::kAlltoall, comm, send, recv, count, type));
}

void barrier(const Communicator& comm) {
  blocking_call(call_args::barrier(comm));
}

void gatherv(const Communicator& comm, const void* send, std::size_t count, void* recv,
             const std::size_t* counts, const std::size_t* displacements, Datatype type, int root) {
  blocking_call(call_args::gatherv(comm, send, count, recv, counts, displacements, type, root));
}

void scatterv(const Communicator& comm, const void* send, const std::size_t* counts,
              const std::size_t* displacements, void* recv, std::size_t count, Datatype type,
              int root) {
  blocking_call(call_args::scatterv(comm, send, counts, displacements, recv, count, type, root));
}

void allgatherv(const Communicator& comm, const void* send, std::size_t count, void* recv,
                const std::size_t* counts, const std::size_t* displacements, Datatype type) {
  blocking_call(call_args::allgatherv(comm, send, count, recv, counts, displacements, type));
}

void alltoallv(const Communicator& comm, const void* send, const std::size_t* send_counts,
               const std::size_t* send_displacements, void* recv, const std::size_t* recv_counts,
               const std::size_t* recv_displacements, Datatype type) {
  blocking_call(call_args::alltoallv(comm, send, send_counts, send_displacements, recv, recv_counts,
                                     recv_displacements, type));
}

void reduce_scatter_block(const Communicator& comm, const void* send, void* recv, std::size_t count,
                          Datatype type, Op op) {
  blocking_call(
      call_args::reducing(Collective::kReduceScatterBlock, comm, send, recv, count, type, op));
}

void reduce_scatter(const Communicator& comm, const void* send, void* recv,
                    const std::size_t* counts, Datatype type, Op op) {
  blocking_call(call_args::reduce_scatter(comm, send, recv, counts, type, op));
}

void scan(const Communicator& comm, const void* send, void* recv, std::size_t count, Datatype type,
          Op op) {
  blocking_call(call_args::reducing(Collective::kScan, comm, send, recv, count, type, op));
}

void exscan(const Communicator& comm, const void* send, void* recv, std::size_t count,
            Datatype type, Op op) {
  blocking_call(call_args::reducing(Collective::kExscan, comm, send, recv, count, type, op));
}

void reduce_local(const void* in, void* inout, std::size_t count, Datatype type, Op op) {
  core::validate_local_reduction(in, inout, count, type, op);
  if (count != 0) reduce_to(op, type, inout, in, inout, count);
}

}  // namespace halyard
